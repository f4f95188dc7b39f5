import DBusKit
import DeeplinkerCore
import Foundation
import Logging

/// Starts an app that is not running, per its `launch` setting (SPEC §6).
struct Launcher: Sendable {
    let connection: DBusConnection
    let logger: Logger

    func launch(_ appID: String, mode: LaunchMode) async {
        switch mode {
        case .none:
            return
        case .dbus:
            do {
                guard try await connection.listActivatableNames().contains(appID) else {
                    logger.info("\(appID) is not bus-activatable; its route waits until it runs")
                    return
                }
                _ = try await connection.startServiceByName(appID)
            } catch {
                logger.warning("could not start \(appID): \(error)")
            }
        case .command(let argv):
            guard let executable = argv.first else { return }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
            process.arguments = executable.hasPrefix("/") ? Array(argv.dropFirst()) : argv
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                logger.warning("could not start \(appID) with \(argv): \(error)")
            }
        }
    }
}
