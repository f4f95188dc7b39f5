import DBusKit

extension DaemonCore {
    /// Runs `job` with the caller behind `sender`: at once when known, else once the connection's
    /// process is identified (its calls keep their order meanwhile).
    func withCaller(_ sender: String, _ job: @escaping CallerDirectory.Job) {
        switch callers.find(sender, job: job) {
        case .known(let caller): job(self, caller)
        case .queued: break
        case .identify:
            let (connection, identify, logger) = (connection, configuration.identifyProcess, logger)
            track { _ in
                let lookup = await Self.identify(sender, on: connection, identify: identify)
                let caller = lookup.identity
                self.onLoop { core in
                    if let reason = lookup.reason { logger.notice("caller \(sender) is treated as \(caller): \(reason)") }
                    for job in core.callers.resolved(sender, as: caller) { job(core, caller) }
                }
            }
        }
    }

    /// A unique name left the bus: forget its caller (calls still waiting are answered as an
    /// unidentified sandboxed app's, as SPEC §3 says for a process that is gone).
    func callerLeft(_ sender: String) {
        for job in callers.forget(sender) { job(self, .sandboxed(appID: nil)) }
        focusReporterLeft(sender)
    }
}

extension DaemonCore {
    /// Identifies the process behind a connection: its pid from the bus, its kind from the
    /// process, then the pid asked again, so a pid reused while it was read is not believed.
    nonisolated static func identify(
        _ sender: String, on connection: DBusConnection, identify: @Sendable (UInt32) -> CallerLookup
    ) async -> CallerLookup {
        do {
            let pid = try await connection.processID(of: sender)
            let lookup = identify(pid)
            guard try await connection.processID(of: sender) == pid else {
                return .unknown("its process id changed while it was read")
            }
            return lookup
        } catch {
            return .unknown("its process could not be read: \(error.name): \(error.message)")
        }
    }
}
