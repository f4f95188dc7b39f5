import DeeplinkerCore
import DeeplinkerProtocol
import FoundationEssentials
import Glibc

extension DaemonCore {
    /// One invocation of any source: routes it and records it (or its refusal). Synchronous on the
    /// actor so events keep their bus order; the caller replies once the returned commit is durable.
    ///
    /// - Parameters:
    ///   - kind: the invocation kind used for de-duplication (`url`, `notification`, ...).
    ///   - input: the raw input, the de-duplication key together with `kind`.
    ///   - source: the source recorded for a refusal.
    ///   - resolve: the routing step, run against the current registry and published shortcuts.
    ///   - recordAs: the app a refusal is recorded for when `appID` is empty (found from the URL),
    ///     asked only for a refusal.
    func invoke(
        appID: String, kind: String, input: String, source: Source, platformData: [String: String],
        launchKind: String? = nil, recordAs: () -> String? = { nil },
        resolve: (AppRegistry, Set<String>?) throws(DeeplinkerError) -> Resolution
    ) -> (Result<InvocationReply, DeeplinkerError>, PendingCommit) {
        let id = InvocationID.make(unixMilliseconds: engine.now / 1_000)
        let resolution: Resolution
        do {
            resolution = try resolve(registry, publishedShortcuts(appID))
        } catch {
            return (.failure(error), recordRejection(id: id, appID: appID.isEmpty ? (recordAs() ?? "") : appID, source: source, error: error, platformData: platformData, launchKind: launchKind))
        }
        do throws(DeeplinkerError) {
            switch resolution {
            case .route(let resolved):
                return try admit(id: id, resolved: resolved, kind: kind, input: input, platformData: platformData, launchKind: launchKind)
            case .restore:
                if let route = engine.restoreRoute(appID: appID) {
                    let resolved = ResolvedRoute(appID: appID, route: Route(target: route.target, parameters: route.parameters, source: .restore))
                    return try admit(id: id, resolved: resolved, kind: kind, input: input, platformData: platformData, launchKind: launchKind)
                }
                fallthrough
            case .nothing:
                let commit = apply(try engine.summon(appID: appID, platformData: platformData))
                var reply = InvocationReply.empty
                reply.kind = launchKind
                return (.success(reply), commit)
            }
        } catch {
            return (.failure(error), apply([]))
        }
    }

    private func admit(
        id: String, resolved: ResolvedRoute, kind: String, input: String, platformData: [String: String], launchKind: String?
    ) throws(DeeplinkerError) -> (Result<InvocationReply, DeeplinkerError>, PendingCommit) {
        let key = resolved.notificationID.map(DedupeKey.notification(id:)) ?? DedupeKey.invocation(kind: kind, input: input)
        var data = platformData
        if let url = resolved.url, resolved.route.source == .url || resolved.route.source == .universalLink {
            data[PlatformDataKey.url] = url
        }
        let request = InvocationRequest(
            id: id, appID: resolved.appID, route: resolved.route, dedupeKey: key, platformData: data, launchKind: launchKind)
        try rememberStoredDuplicate(appID: resolved.appID, key: key)
        let admission = try engine.receive(request)
        var commit = apply(admission.effects)
        if admission.isDuplicate {
            // The first call may have been refused with StorageFailed (the engine kept it, the store
            // did not): store it now, so acknowledging the repeat is a promise kept.
            commit = store.enqueue([.invocation(admission.invocation)])
        }
        let invocation = admission.invocation
        let reply = InvocationReply(
            id: invocation.id, target: invocation.route?.target ?? "", parameters: invocation.route?.parameters ?? [:],
            kind: admission.isDuplicate ? (invocation.launchKind ?? launchKind) : launchKind)
        return (.success(reply), commit)
    }

    /// De-duplication across a restart (SPEC §6): when the key's window reaches back before the
    /// engine started, the first invocation with it is read from the store (an indexed read on this
    /// thread) and handed to the engine. A failed read refuses the invocation with `StorageFailed`.
    private func rememberStoredDuplicate(appID: String, key: String) throws(DeeplinkerError) {
        guard let since = engine.storedDuplicateSince(appID: appID, key: key) else { return }
        do {
            if let first = try store.firstInvocation(appID: appID, dedupeKey: key, since: since) { engine.rememberStored(first) }
        } catch {
            logger.error("de-duplication look-up for \(appID) failed: \(error)")
            throw .storageFailed("\(error)")
        }
    }

    /// An invocation refused before routing (an oversized argument, an ill-typed `platform_data`
    /// value): recorded as `rejected` for a configured app (`recordAs` when `appID` is empty); the
    /// caller answers `error` once the record is durable.
    func reject(appID: String, source: Source, error: DeeplinkerError, recordAs: () -> String? = { nil }) -> PendingCommit {
        let id = InvocationID.make(unixMilliseconds: engine.now / 1_000)
        return recordRejection(
            id: id, appID: appID.isEmpty ? (recordAs() ?? "") : appID, source: source, error: error, platformData: [:], launchKind: nil)
    }

    /// The one app that claims `url` (by scheme or domain), if exactly one does: a refusal of an
    /// `OpenURL` with no app id is recorded for it.
    func claimant(of url: String) -> String? {
        (try? ValidatedURL(url)).flatMap { try? registry.app(for: $0) }
    }

    /// Records a refused invocation for a configured app (status `rejected`); unknown apps leave no trace.
    private func recordRejection(
        id: String, appID: String, source: Source, error: DeeplinkerError, platformData: [String: String], launchKind: String?
    ) -> PendingCommit {
        guard !appID.isEmpty, registry.contains(appID),
            let (_, effects) = try? engine.reject(
                id: id, appID: appID, source: source, error: error, platformData: platformData, launchKind: launchKind)
        else { return apply([]) }
        return apply(effects)
    }
}

extension DaemonCore {
    func requireKnown(_ appID: String) throws(DeeplinkerError) {
        guard registry.contains(appID) else { throw .unknownApp(appID) }
    }

    /// `GetPending`: the app's pending deeplink (also while its delivery is in flight).
    func pending(appID: String) throws(DeeplinkerError) -> Invocation? {
        try requireKnown(appID)
        apply(engine.expireStale(appID: appID))
        return engine.pending(appID: appID)
    }

    /// `DiscardPending`.
    func discardPending(appID: String) throws(DeeplinkerError) -> (Bool, PendingCommit) {
        try requireKnown(appID)
        let (discarded, effects) = engine.discardPending(appID: appID)
        return (discarded, apply(effects))
    }

    func appState(_ appID: String) throws(DeeplinkerError) -> AppState {
        try requireKnown(appID)
        return engine.state(of: appID)
    }

    /// `SetAppState`: returns the commit of the change (answered once it is written, `StorageFailed`
    /// if it is refused, which puts the state back) and the step the dispatcher runs after the
    /// reply, which lets the deliveries it freed go (or undoes the refused change).
    func setAppState(
        _ appID: String, state: String, sender: String
    ) throws(DeeplinkerError) -> (commit: PendingCommit, release: @Sendable () -> Void) {
        try requireKnown(appID)
        guard let parsed = AppState(rawValue: state), parsed != .notRunning else {
            throw .invalidParameter(name: "state", value: state, reason: "must be active, inactive or background")
        }
        // SPEC §3: it replies before any delivery starts (the app may be single-threaded).
        let (commit, id) = applyHeld(try engine.setAppState(parsed, appID: appID, sender: sender))
        return (commit, { self.onLoop { $0.release(id) } })
    }

    /// A lifecycle signal from `sender` on an app's object path; refused senders are ignored.
    func lifecycleSignal(path: String, member: String, sender: String) {
        guard let appID = appsByPath[path], let signal = LifecycleSignal(rawValue: member) else { return }
        do {
            apply(try engine.lifecycleSignal(signal, appID: appID, sender: sender))
        } catch {
            logger.notice("ignored \(member) for \(appID) from \(sender): \(error.message)")
        }
    }

    /// `NameOwnerChanged` for a configured app id.
    func ownerChanged(name: String, newOwner: String) {
        guard registry.contains(name) || engine.policy(for: name) != nil else { return }
        apply(engine.nameOwnerChanged(appID: name, newOwner: newOwner.isEmpty ? nil : newOwner))
    }

    /// The result of a delivery attempt.
    func deliveryFinished(_ outcome: DeliveryOutcome, appID: String, invocationID: String, attempt: Int) {
        apply(engine.deliveryOutcome(outcome, appID: appID, invocationID: invocationID, attempt: attempt))
    }

    /// `SetShortcuts`: publishes exactly these configured shortcuts, durably.
    func setShortcuts(appID: String, types: [String]) throws(DeeplinkerError) -> PendingCommit {
        _ = try registry.shortcutsToPublish(appID: appID, types: types)
        // Published once the write commits (SPEC §6): a refused write leaves the set as it was.
        let commit = store.enqueue([.shortcuts(appID: appID, types: types)])
        commit.whenWritten { outcome in
            guard case .success = outcome else { return }
            self.onLoop { $0.published[appID] = types }
        }
        return commit
    }

    /// Periodic TTL sweep.
    func expireStale() {
        apply(engine.expireStale())
        scheduleSweep(rescheduled: true)
    }
}
