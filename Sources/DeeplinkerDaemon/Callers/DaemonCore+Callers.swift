import DBusKit
import TaskThreads

extension DaemonCore {
    /// Runs `job` with the caller behind `sender`: at once when known, else once the connection's
    /// process is identified (its calls keep their order meanwhile). A `callerIndependent` call
    /// (a method open to everyone) need not wait: it runs at once as the strictest caller when
    /// nothing of its connection waits before it; the connection is identified when a call
    /// first needs it.
    func withCaller(_ sender: String, callerIndependent: Bool = false, _ job: @escaping CallerDirectory.Job) {
        switch callers.find(sender, callerIndependent: callerIndependent, job: job) {
        case .known(let caller): job(self, caller)
        case .queued: break
        case .provisional:
            job(self, CallerDirectory.provisional)
        case .identify:
            startIdentifying(sender)
        }
    }

    private func startIdentifying(_ sender: String) {
        let (connection, identify, logger) = (connection, configuration.identifyProcess, logger)
        track { _ in
            let processID = LockedValue<UInt32?>(nil)
            let lookup = await Self.identify(sender, on: connection, identify: identify) { pid in processID.withLock { $0 = pid } }
            let caller = lookup.identity
            self.onLoop { core in
                if let pid = processID.withLock({ $0 }) { core.processIDs[sender] = pid }
                if let reason = lookup.reason { logger.notice("caller \(sender) is treated as \(caller): \(reason)") }
                for job in core.callers.resolved(sender, as: caller) { job(core, caller) }
            }
        }
    }

    /// A unique name left the bus: forget its caller (calls still waiting are answered as an
    /// unidentified sandboxed app's, as SPEC §3 says for a process that is gone).
    func callerLeft(_ sender: String) {
        for job in callers.forget(sender) { job(self, .sandboxed(appID: nil)) }
        processIDs[sender] = nil
        focusReporterLeft(sender)
    }
}

extension DaemonCore {
    /// Identifies the process behind a connection: its pid from the bus, its kind from the
    /// process, then the pid asked again, so a pid reused while it was read is not believed.
    nonisolated static func identify(
        _ sender: String, on connection: DBusConnection, identify: @Sendable (UInt32) -> CallerLookup,
        processID: @Sendable (UInt32) -> Void = { _ in }
    ) async -> CallerLookup {
        do {
            let pid = try await connection.processID(of: sender)
            let lookup = identify(pid)
            guard try await connection.processID(of: sender) == pid else {
                return .unknown("its process id changed while it was read")
            }
            processID(pid)
            return lookup
        } catch {
            return .unknown("its process could not be read: \(error.name): \(error.message)")
        }
    }
}
