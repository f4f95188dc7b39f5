import DeeplinkerCore
import Foundation
import DeeplinkerProtocol

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
