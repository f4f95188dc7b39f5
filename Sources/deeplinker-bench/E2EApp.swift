import DBusKit
import DeeplinkerProtocol
import Foundation

/// `deeplinker-bench e2e-app`: the app of the end-to-end benchmark, in its own process (started by
/// the bench or bus-activated). It owns `com.bestrecipes.App`, serves `org.freedesktop.Application`
/// (`Activate`, `Open`, `ActivateAction`) at the app's object path and reports itself active. Each
/// call is answered at once; the moment it arrived (`CLOCK_MONOTONIC`, shared by every process) is
/// then announced as the signal `Handled(s member, t monotonic_ns, s url, a{sv} platform_data)`,
/// which the bench matches to the link it sent.
enum E2EApp {
    static let reportInterface = "org.deeplinker.Bench"
    static let reportMember = "Handled"

    static func run() async -> Int32 {
        let address = ProcessInfo.processInfo.environment["DBUS_STARTER_ADDRESS"]
            ?? ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        do {
            let connection = try DBusConnection(address: address)
            let path = DeeplinkerBus.objectPath(forAppID: BenchRouteFile.appID)
            try connection.export(DBusObject(path: path, interfaces: [
                DBusInterface(DeeplinkerBus.applicationInterface, methods: [
                    DBusMethod("Activate", in: [DBusArgument("platform_data", "a{sv}")]) { call in
                        handled(call, connection, path, url: "", data: call.arguments.first)
                    },
                    DBusMethod("Open", in: [DBusArgument("uris", "as"), DBusArgument("platform_data", "a{sv}")]) { call in
                        let url = call.arguments.first?.stringArray?.first ?? ""
                        handled(call, connection, path, url: url, data: call.arguments.count == 2 ? call.arguments[1] : nil)
                    },
                    DBusMethod(
                        "ActivateAction",
                        in: [DBusArgument("action_name", "s"), DBusArgument("parameter", "av"), DBusArgument("platform_data", "a{sv}")]
                    ) { call in
                        let data = call.arguments.count == 3 ? call.arguments[2] : nil
                        let url = data?.variantDictionaryValue?[PlatformDataKey.url]?.stringValue ?? ""
                        handled(call, connection, path, url: url, data: data)
                    },
                ])
            ]))
            let reply = try await connection.requestName(BenchRouteFile.appID)
            guard reply == .primaryOwner || reply == .alreadyOwner else {
                FileHandle.standardError.write(Data("e2e-app: could not own \(BenchRouteFile.appID): \(reply)\n".utf8))
                return 1
            }
            try connection.emitSignal(path: path, interface: DeeplinkerBus.lifecycleInterface, member: LifecycleSignalName.becameActive.rawValue)
            // A restarted daemon learns the state again (as DeeplinkerClient does).
            try await connection.onNameOwnerChanged(name: DeeplinkerBus.name) { _, _, new in
                guard !new.isEmpty else { return }
                try? connection.emitSignal(path: path, interface: DeeplinkerBus.lifecycleInterface, member: LifecycleSignalName.becameActive.rawValue)
            }
        } catch {
            FileHandle.standardError.write(Data("e2e-app: \(error)\n".utf8))
            return 1
        }
        // Serves from the connection's thread until SIGTERM.
        while true { pause() }
    }

    /// Replies, then reports when the call arrived.
    private static func handled(_ call: DBusMethodCall, _ connection: DBusConnection, _ path: String, url: String, data: DBusValue?) {
        let arrived = monotonicNanoseconds()
        call.reply()
        try? connection.emitSignal(
            path: path, interface: reportInterface, member: reportMember,
            arguments: [.string(call.member), .uint64(arrived), .string(url), data ?? .variantDictionary([:])])
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: the same clock in every process of the machine.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
