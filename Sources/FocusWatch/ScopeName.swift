/// The app id in a systemd unit name of the desktop convention (systemd.io "Desktop
/// Environments"): `app[-<launcher>]-<app-id>-<random>.scope` or `app[-<launcher>]-<app-id>[@<random>].service`,
/// with `-` inside the app id escaped as `\x2d`. Deeplinker's own scopes, GNOME's and KDE's follow it.
public enum ScopeName {
    /// The app id of the innermost `app-….scope` or `app-….service` on any line of a
    /// `/proc/PID/cgroup` text (cgroup v1 or v2), nil when there is none.
    public static func appID(inCgroup text: String) -> String? {
        for line in text.split(separator: "\n") {
            // `hierarchy:controllers:path`; the path may itself contain ':'.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            for unit in fields[2].split(separator: "/").reversed() {
                if let id = appID(unit: String(unit)) { return id }
            }
        }
        return nil
    }

    /// The app id in one unit name, nil when it does not follow the convention.
    public static func appID(unit: String) -> String? {
        guard unit.hasPrefix("app-") else { return nil }
        var body = Substring(unit.dropFirst(4))
        var parts: [Substring]
        if body.hasSuffix(".scope") {
            body = body.dropLast(6)
            parts = body.split(separator: "-", omittingEmptySubsequences: false)
            // The last part is the random suffix.
            guard parts.count >= 2 else { return nil }
            parts.removeLast()
        } else if body.hasSuffix(".service") {
            body = body.dropLast(8)
            if let at = body.firstIndex(of: "@") { body = body[..<at] }
            parts = body.split(separator: "-", omittingEmptySubsequences: false)
        } else {
            return nil
        }
        // With a launcher the first part is its name (`gnome`, `deeplinker`, `flatpak`).
        let candidates = parts.count >= 2 ? [parts.dropFirst().joined(separator: "-"), parts.joined(separator: "-")] : [parts.joined(separator: "-")]
        for candidate in candidates {
            let id = unescape(candidate)
            if AppIDRules.isValid(id) { return id }
        }
        return nil
    }

    /// systemd's unit-name escaping undone: `\xNN` → the byte.
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == 0x5C, i + 3 < utf8.count, utf8[i + 1] == 0x78,
               let value = UInt8(String(decoding: utf8[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                i += 4
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
