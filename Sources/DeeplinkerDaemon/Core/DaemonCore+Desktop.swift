import DeeplinkerCore

extension DaemonCore {
    /// What `SetShortcuts` does once the published set is stored, before it replies: the written
    /// desktop entry gets the published shortcuts as its actions (SPEC §8).
    func rewriteDesktopActions(appID: String, types: [String]) -> @Sendable () -> Void {
        guard let config = config(appID) else { return {} }
        let entry = WrittenDesktopEntry(appID: appID, environment: configuration.environment)
        let logger = self.logger
        return {
            if let failure = entry.rewriteActions(config: config, shortcuts: types) { logger.warning("\(failure)") }
        }
    }

    /// Re-derives every written desktop entry whose installed source changed (start-up and
    /// `Reload`; SPEC §8), writing only entries whose text differs.
    func refreshDesktopEntries() {
        guard DesktopEntryLocator.dataHome(environment: configuration.environment) != nil else { return }
        for appID in registry.appIDs {
            guard let config = config(appID) else { continue }
            let entry = WrittenDesktopEntry(appID: appID, environment: configuration.environment)
            switch entry.refresh(config: config, published: published[appID]) {
            case .success(let message): logger.notice("\(message)")
            case .failure(let failure): logger.warning("\(failure.message)")
            case nil: break
            }
        }
    }
}
