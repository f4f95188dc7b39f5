import DBusKit
import DeeplinkerCore
import Logging

extension DaemonCore {
    /// Runs effect batches whose commits are written or refused (and that no reply holds), in the
    /// order they were applied: a batch waits for every earlier one even if its own commit was
    /// settled first.
    func runSettledEffects() {
        while let first = awaitingCommit.first, let outcome = first.commit.writtenOutcome, !first.held {
            awaitingCommit.removeFirst()
            switch outcome {
            case .success:
                for record in Self.appStates(first.effects) { storedAppStates[record.appID] = record }
                // The effects first: a raise and an `activate-action` delivery are written to the bus
                // here, so the app's call goes ahead of the signals (and of the reply, which waits
                // for the sync); the signals, made only now, still precede the reply.
                run(first.effects)
                for signal in Self.invocationChangedSignals(first.effects) { connection.send(signal) }
                logOutcomes(first.effects)
            case .failure(let error):
                logger.error("a change was not stored, its signals and deliveries are skipped: \(error)")
                // Its invocations were refused (StorageFailed): the engine undoes what they did.
                let changes = first.effects.compactMap { effect -> Invocation? in
                    if case .statusChanged(let invocation) = effect { invocation } else { nil }
                }
                // An app whose newer state waits on a later commit is left to that commit's outcome.
                let restored = Set(Self.appStates(first.effects).map(\.appID))
                    .subtracting(awaitingCommit.flatMap { Self.appStates($0.effects).map(\.appID) })
                    .map { storedAppStates[$0] ?? AppStateRecord(appID: $0, state: .notRunning, owner: nil, updatedAt: 0) }
                if !changes.isEmpty || !restored.isEmpty { apply(engine.forgetUnstored(changes, appStates: restored)) }
            }
        }
        reportStatus()
    }

    /// The app states `effects` record, in order.
    nonisolated static func appStates(_ effects: [EngineEffect]) -> [AppStateRecord] {
        effects.compactMap { if case .appStateChanged(let record) = $0 { record } else { nil } }
    }

    /// The `InvocationChanged` signals of `effects`, in order (never parameter values, SPEC §3).
    nonisolated static func invocationChangedSignals(_ effects: [EngineEffect]) -> [DBusMessage] {
        effects.compactMap { effect in
            guard case .statusChanged(let invocation) = effect else { return nil }
            return try? DBusMessage.signal(
                path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface, member: "InvocationChanged",
                arguments: [
                    .string(invocation.appID), .string(invocation.id), .string(invocation.status.rawValue),
                    .string(invocation.detail),
                ])
        }
    }

    /// Runs `body` as a task on the core, tracked in ``tasks`` so a stop waits for it (bounded).
    /// The task cannot start before this returns (it needs the core), so it is registered first.
    func track(_ body: @escaping @Sendable (isolated DaemonCore) async -> Void) {
        let id = tasks.reserve()
        let task = Task {
            await body(self)
            self.tasks.finished(id)
        }
        tasks.started(id, task)
    }

    /// Starts deliveries, launches and raises, in order (the commit's signals follow). None waits
    /// for another: an `activate-action` delivery's outcome comes back as a callback, the other
    /// modes and launches run in tasks of their own, so a slow app never holds up another.
    private func run(_ effects: [EngineEffect]) {
        for effect in effects {
            switch effect {
            case .statusChanged:
                continue
            case .deliver(let attempt):
                let (deliverer, connection, logger) = (self.deliverer, self.connection, self.logger)
                let finish: @Sendable (isolated DaemonCore, DeliveryOutcome) -> Void = { core, outcome in
                    Self.logDelivery(attempt, outcome, logger: logger)
                    // Our own connection closed under the call (shutdown): the outcome is unknown,
                    // not a refusal. Leave it `delivering` so the next start redelivers it, flagged.
                    if outcome != .acknowledged && connection.isClosed { return }
                    core.deliveryFinished(
                        outcome, appID: attempt.invocation.appID, invocationID: attempt.invocation.id, attempt: attempt.attempt)
                }
                if let sent = deliverer.start(attempt) {
                    // Sent now, not when a task first runs; the reply comes back as a callback on
                    // the bus thread, so no thread is woken while the app handles the route.
                    let id = tasks.reserve()
                    tasks.startedWithoutTask(id)
                    sent.whenFinished { outcome in
                        self.onLoop { core in
                            finish(core, outcome)
                            core.tasks.finished(id)
                        }
                    }
                } else {
                    track { core in finish(core, await deliverer.deliver(attempt)) }
                }
            case .launch(let summons):
                guard let mode = config(summons.appID)?.launch else { continue }
                let launcher = self.launcher
                let opensByDelivery = summons.invocationID != nil && (engine.policy(for: summons.appID)?.delivery.opensURIs ?? false)
                if let requested = summons.launchRequestedAt { launchWatches[summons.appID] = requested }
                track { core in
                    let start = await launcher.launch(summons, mode: mode, opensByDelivery: opensByDelivery) { reason in
                        core.onLoop { $0.launchDidNotTake(summons, reason: reason) }
                    }
                    core.launchStarted(summons, start)
                }
            case .raise(let summons):
                // Sent now, not in a task: a delivery that follows goes out after it.
                launcher.raise(summons)
            case .appStateChanged(let record):
                logger.info("\(record.appID) is \(record.state.rawValue)\(record.owner.map { " (\($0))" } ?? "")")
                if let owner = record.owner { deliverer.ownerAppeared(appID: record.appID, owner: owner, policy: engine.policy(for: record.appID)) }
            }
        }
    }
}

extension DaemonCore {
    /// Logs each invocation outcome once it is stored (SPEC §9): app id, invocation id, source and
    /// target, plus the detail `InvocationChanged` also carries. Never parameter values or payloads.
    func logOutcomes(_ effects: [EngineEffect]) {
        for effect in effects {
            guard case .statusChanged(let invocation) = effect else { continue }
            var (level, outcome) = Self.outcome(invocation.status)
            // Back to pending after a failed attempt: not a new invocation.
            if invocation.status == .pending && invocation.attempts > 0 { (level, outcome) = (.info, "pending again") }
            // Its launch did not take: the warning that says so is logged already.
            if invocation.status == .pending && LaunchFailure.reason(inDetail: invocation.detail) != nil { (level, outcome) = (.debug, "still pending") }
            logger.log(level: level, "\(Self.describe(invocation)) \(outcome)\(invocation.detail.isEmpty ? "" : ": \(invocation.detail)")")
        }
    }

    /// The level and verb of a status: final failures at warning, a delivery in flight at debug.
    nonisolated static func outcome(_ status: InvocationStatus) -> (Logger.Level, String) {
        switch status {
        case .pending: (.info, "stored")
        case .delivering: (.debug, "delivering")
        case .delivered: (.info, "delivered")
        case .superseded: (.info, "superseded")
        case .expired: (.info, "expired")
        case .discarded: (.info, "discarded")
        case .failed: (.warning, "failed")
        case .rejected: (.notice, "rejected")
        }
    }

    /// `invocation ID of APP (source S, target T)`: the identifying fields only.
    nonisolated static func describe(_ invocation: Invocation) -> String {
        "invocation \(invocation.id) of \(invocation.appID) (source \(invocation.source.rawValue), target \(invocation.route?.target ?? "none"))"
    }

    /// Logs one delivery attempt: acknowledged at debug (the `delivered` outcome follows at info),
    /// a refusal or a time-out at warning.
    nonisolated static func logDelivery(_ attempt: DeliveryAttempt, _ outcome: DeliveryOutcome, logger: Logger) {
        let what = "delivery attempt \(attempt.attempt) of \(describe(attempt.invocation))"
        switch outcome {
        case .acknowledged: logger.debug("\(what) acknowledged")
        case .refused(let why): logger.warning("\(what) failed: the app refused (\(why))")
        case .timedOut: logger.warning("\(what) failed: no acknowledgement within \(attempt.timeout)")
        case .noOwner: logger.notice("\(what) found no owner of \(attempt.invocation.appID); it waits for the app")
        case .undeliverable(let why): logger.warning("\(what) failed at once: \(why)")
        }
    }
}
