import DBusKit
import FoundationEssentials
import Glibc
import Logging

/// Moves a launched process into its own transient scope `app-deeplinker-<id>-<random>.scope`, the
/// convention of systemd's desktop-environment guide, so it does not live (and die) inside the
/// daemon's service (SPEC §6). Without `org.freedesktop.systemd1` on the bus it does nothing: the
/// process already runs in its own session.
enum TransientScope {
    static let systemd = "org.freedesktop.systemd1"

    /// The scope's unit name: the app id escaped as `systemd-escape` does, and 16 random hex digits.
    static func unitName(appID: String) -> String {
        let random = (0..<8).map { _ in hex(UInt8.random(in: 0...255)) }.joined()
        return "app-deeplinker-\(escape(appID))-\(random).scope"
    }

    /// `systemd-escape`: ASCII letters, digits, `:`, `_` and `.` (not first) stay; everything else,
    /// `-` included, becomes `\xNN`.
    static func escape(_ text: String) -> String {
        var out = ""
        for (index, byte) in text.utf8.enumerated() {
            let c = Character(Unicode.Scalar(byte))
            let plain = (c.isASCII && (c.isLetter || c.isNumber)) || c == ":" || c == "_" || (c == "." && index > 0)
            out += plain ? String(c) : "\\x" + hex(byte)
        }
        return out
    }

    /// Two lowercase hex digits.
    private static func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }

    /// `StartTransientUnit(name, "fail", [PIDs, Description, CollectMode], [])` on the session bus's
    /// systemd; failures are logged.
    static func adopt(pid: UInt32, appID: String, connection: DBusConnection, logger: Logger) async {
        do {
            guard try await connection.nameOwner(systemd) != nil else { return }
            let name = unitName(appID: appID)
            let properties: [DBusValue] = [
                .structure([.string("PIDs"), .variant(.array(elementSignature: "u", [.uint32(pid)]))]),
                .structure([.string("Description"), .variant(.string("\(appID) started by Deeplinker"))]),
                .structure([.string("CollectMode"), .variant(.string("inactive-or-failed"))]),
            ]
            _ = try await connection.call(
                destination: systemd, path: "/org/freedesktop/systemd1", interface: "org.freedesktop.systemd1.Manager",
                member: "StartTransientUnit",
                arguments: [
                    .string(name), .string("fail"), .array(elementSignature: "(sv)", properties),
                    .array(elementSignature: "(sa(sv))", []),
                ],
                timeout: .seconds(5), noAutoStart: true)
            logger.info("moved \(appID) (process \(pid)) into \(name)")
        } catch {
            logger.warning("could not move \(appID) (process \(pid)) into its own scope: \(error.name): \(error.message)")
        }
    }
}
