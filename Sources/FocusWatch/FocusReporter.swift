import DBusKit
import DeeplinkerProtocol
import FoundationEssentials
import TaskThreads

/// Tells the daemon which app has the focus (`SetFocusedApp`), only when that changes, and again
/// whenever the daemon (re)appears on the bus. The bus connection is made again when it is lost.
public final class FocusReporter: Sendable {
    private struct State {
        var connection: DBusConnection?
        /// The app reported last (what the daemon should know).
        var current: String?
        var stopped = false
    }

    private let busAddress: String?
    private let log: @Sendable (String) -> Void
    private let state = LockedValue(State())
    /// Calls answered, for the benchmark and tests: (app id, error name or nil).
    private let answered: (@Sendable (String, String?) -> Void)?

    public init(busAddress: String?, log: @escaping @Sendable (String) -> Void, answered: (@Sendable (String, String?) -> Void)? = nil) {
        self.busAddress = busAddress
        self.log = log
        self.answered = answered
    }

    /// Connects to the bus and follows the daemon's name; retries until it works or `stop()`.
    public func start() async {
        while !state.withLock({ $0.stopped }) {
            do {
                try await connect()
                return
            } catch {
                log("cannot connect to the bus (\(error)); trying again in 1 s")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    public func stop() {
        let connection = state.withLock { state -> DBusConnection? in
            state.stopped = true
            defer { state.connection = nil }
            return state.connection
        }
        connection?.close()
    }

    /// The focus is on `appID` now (`""`: no known app): sent if it differs from the last report.
    public func report(_ appID: String) {
        let connection = state.withLock { state -> DBusConnection? in
            guard state.current != appID else { return nil }
            state.current = appID
            return state.connection
        }
        if let connection { send(appID, on: connection) }
    }

    private func connect() async throws {
        let connection = try DBusConnection(address: busAddress)
        connection.onDisconnect { [weak self] in
            guard let self else { return }
            let stopped = self.state.withLock { state -> Bool in
                state.connection = nil
                return state.stopped
            }
            guard !stopped else { return }
            self.log("lost the bus connection; connecting again")
            Task { await self.start() }
        }
        // A daemon that (re)starts learns the focus at once.
        try await connection.onNameOwnerChanged(name: DeeplinkerBus.name) { [weak self] _, _, owner in
            guard let self, !owner.isEmpty else { return }
            if let current = self.state.withLock({ $0.current }) { self.send(current, on: connection) }
        }
        let current = state.withLock { state -> String? in
            state.connection = connection
            return state.current
        }
        if let current { send(current, on: connection) }
    }

    private func send(_ appID: String, on connection: DBusConnection) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: DeeplinkerBus.name, path: DeeplinkerBus.objectPath, interface: DeeplinkerBus.interface,
                member: "SetFocusedApp", arguments: [.string(appID)], noAutoStart: true)
        } catch {
            return log("cannot report the focus on \(appID): \(error)")
        }
        let (log, answered) = (self.log, self.answered)
        connection.startCall(message, timeout: .seconds(5)) { result in
            switch result {
            case .success:
                answered?(appID, nil)
            case .failure(let error):
                answered?(appID, error.name)
                // No daemon: it hears the focus when it appears.
                if error.name != DBusError.serviceUnknownName && error.name != "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    log("SetFocusedApp(\(appID.isEmpty ? "\"\"" : appID)) failed: \(error.name): \(error.message)")
                }
            }
        }
    }
}
