import DBusKit
import DeeplinkerDaemon
import Foundation

/// Seed inputs: every method of the API with plausible arguments, in the wire format (mode byte 0),
/// plus the same calls as Introspect, Properties and Peer calls the binding answers itself.
enum SurfaceSeeds {
    static let app = "com.bestrecipes.App"

    static let calls: [(interface: String, member: String, arguments: [DBusValue])] = {
        let deeplinker = DeeplinkerAPI.interface
        return [
            (deeplinker, "OpenURL", [.string(app), .string("bestrecipes://recipe/12")]),
            (deeplinker, "ActivateNotification", [.string(app), .string(#"{"type":"recipe","id":12}"#), .string("default")]),
            (deeplinker, "PerformShortcut", [.string(app), .string("com.bestrecipes.favorites")]),
            (deeplinker, "ContinueActivity", [.string(app), .string("NSUserActivityTypeBrowsingWeb"), .string("https://bestrecipes.com/recipe/9")]),
            (deeplinker, "Launch", [.string(app), .string(#"{"url":"bestrecipes://recipe/3"}"#)]),
            (deeplinker, "Invoke", [.string(app), .string("url"), .string("bestrecipes://recipe/4"), .variantDictionary(["activation-token": .string("t")])]),
            (deeplinker, "GetPending", [.string(app)]),
            (deeplinker, "DiscardPending", [.string(app)]),
            (deeplinker, "ResolveURL", [.string(""), .string("https://bestrecipes.com/recipe/12")]),
            (deeplinker, "GetAppState", [.string(app)]),
            (deeplinker, "SetAppState", [.string(app), .string("active")]),
            (deeplinker, "ListApps", []),
            (deeplinker, "GetHistory", [.string(""), .uint32(5)]),
            (deeplinker, "GetInvocation", [.string("01a21e8f-573c-7353-ae19-c5f3af74e197")]),
            (deeplinker, "SetShortcuts", [.string(app), .strings(["com.bestrecipes.favorites"])]),
            (deeplinker, "PostNotification", [.string(app), .string("s"), .string("b"), .string(#"{"type":"recipe","id":1}"#)]),
            (deeplinker, "Reload", []),
            (deeplinker, "SetFocusedApp", [.string(app)]),
            (deeplinker, "GetLinkClaims", []),
            (deeplinker, "SetDomainVerification", [.string(app), .string("bestrecipes.com"), .string("verified"), .string("")]),
            ("org.freedesktop.DBus.Introspectable", "Introspect", []),
            ("org.freedesktop.DBus.Properties", "Get", [.string(deeplinker), .string("Version")]),
            ("org.freedesktop.DBus.Properties", "GetAll", [.string(deeplinker)]),
            ("org.freedesktop.DBus.Peer", "Ping", []),
        ]
    }()

    /// Writes one file per seed call into `directory`.
    static func write(to directory: String) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (index, call) in calls.enumerated() {
            guard let message = try? DBusMessage.methodCall(
                destination: DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath, interface: call.interface,
                member: call.member, arguments: call.arguments),
                let wire = message.marshal()
            else { continue }
            _ = FileManager.default.createFile(atPath: "\(directory)/wire-\(index)", contents: Data([0] + wire))
        }
        // Structure-aware seeds: method index, then token picks for each argument.
        for index in 0..<DeeplinkerAPI.methods.count {
            _ = FileManager.default.createFile(atPath: "\(directory)/struct-\(index)", contents: Data([1, UInt8(index), 0, 0, 0, 4, 0, 10, 0, 0]))
        }
    }
}
