import DBusKit
import DeeplinkerClient
import FoundationEssentials
import DeeplinkerProtocol

/// Connects to the daemon for one verb and turns bus errors into `CLIFailure`s.
public enum DaemonSession {
    /// Connects to the bus (`--bus-address` or the session bus) and returns a proxy.
    public static func connect(_ options: GlobalOptions) throws(CLIFailure) -> DeeplinkerProxy {
        do {
            return try DeeplinkerProxy(busAddress: options.busAddress)
        } catch {
            let bus = options.busAddress.map { "the bus at \($0)" } ?? "the session bus"
            throw CLIFailure(
                .daemonNotRunning,
                "cannot connect to \(bus) (\(error.message)), so the Deeplinker daemon is not reachable; set DBUS_SESSION_BUS_ADDRESS or pass --bus-address",
                errorName: error.name)
        }
    }

    /// Runs `body` against the daemon; errors become `CLIFailure`s with their exit status.
    public static func run<T>(_ options: GlobalOptions, _ body: (DeeplinkerProxy) async throws -> T) async throws -> T {
        let proxy = try connect(options)
        defer { proxy.connection.close() }
        do {
            return try await body(proxy)
        } catch let error as DBusError {
            throw CLIFailure.from(error, busAddress: options.busAddress)
        }
    }

    /// Whether the daemon is on the bus right now; false when there is no bus either.
    public static func isRunning(_ options: GlobalOptions) async -> Bool {
        guard let proxy = try? DeeplinkerProxy(busAddress: options.busAddress) else { return false }
        defer { proxy.connection.close() }
        return (try? await proxy.isDaemonRunning()) ?? false
    }

    /// `platform_data` for `Invoke` from the environment: the launcher's activation token and
    /// startup id, so the app can raise its window.
    public static func platformData(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var data: [String: String] = [:]
        if let token = environment["XDG_ACTIVATION_TOKEN"], !token.isEmpty { data[PlatformDataKey.activationToken] = token }
        if let id = environment["DESKTOP_STARTUP_ID"], !id.isEmpty { data[PlatformDataKey.desktopStartupID] = id }
        return data
    }
}
