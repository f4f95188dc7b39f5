import DBusKit
import DeeplinkerCore

extension DaemonCore {
    /// Runs effect batches whose commits are known, in the order they were applied: a batch waits
    /// for every earlier one even if its own commit was resolved first.
    func effectsCommitted(_ id: UInt64, _ outcome: Result<Void, any Error>, signals: [DBusMessage]) {
        if let index = awaitingCommit.firstIndex(where: { $0.id == id }) {
            awaitingCommit[index].outcome = outcome
            awaitingCommit[index].signals = signals
        }
        while let first = awaitingCommit.first, let outcome = first.outcome {
            awaitingCommit.removeFirst()
            switch outcome {
            case .success:
                for signal in first.signals { connection.send(signal) }
                logOutcomes(first.effects)
                run(first.effects)
            case .failure(let error):
                logger.error("a change was not stored, its signals and deliveries are skipped: \(error)")
                // Its invocations were refused (StorageFailed): the engine undoes what they did.
                let changes = first.effects.compactMap { effect -> Invocation? in
                    if case .statusChanged(let invocation) = effect { invocation } else { nil }
                }
                if !changes.isEmpty { apply(engine.forgetUnstored(changes)) }
            }
        }
        reportStatus()
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

    /// Starts deliveries, launches and raises (the signals went out before). Each runs as its own
    /// task so a slow app never holds up another.
    private func run(_ effects: [EngineEffect]) {
        for effect in effects {
            switch effect {
            case .statusChanged:
                continue
            case .deliver(let attempt):
                let (deliverer, connection, logger) = (self.deliverer, self.connection, self.logger)
                track { core in
                    let outcome = await deliverer.deliver(attempt)
                    Self.logDelivery(attempt, outcome, logger: logger)
                    // Our own connection closed under the call (shutdown): the outcome is unknown,
                    // not a refusal. Leave it `delivering` so the next start redelivers it, flagged.
                    if outcome != .acknowledged && connection.isClosed { return }
                    core.deliveryFinished(
                        outcome, appID: attempt.invocation.appID, invocationID: attempt.invocation.id, attempt: attempt.attempt)
                }
            case .launch(let summons):
                guard let mode = config(summons.appID)?.launch else { continue }
                let launcher = self.launcher
                track { _ in await launcher.launch(summons, mode: mode) }
            case .raise(let summons):
                let launcher = self.launcher
                track { _ in await launcher.raise(summons) }
            case .appStateChanged(let record):
                logger.info("\(record.appID) is \(record.state.rawValue)\(record.owner.map { " (\($0))" } ?? "")")
            }
        }
    }
}
