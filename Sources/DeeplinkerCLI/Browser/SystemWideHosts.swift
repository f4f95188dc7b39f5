import FoundationEssentials

/// The native messaging host manifests a system-wide install (the Debian package, SPEC §9) puts
/// where each browser reads them for every user. `install-browser` says when one already covers a
/// browser, and `doctor` counts them as installed.
extension BrowserHosts {
    /// The system-wide manifest of `browser` under `root` ("" for the machine itself).
    public static func systemManifestPath(_ browser: Browser, root: String = "") -> String {
        let directory = switch browser {
        case .chromium: "/etc/chromium/native-messaging-hosts"
        case .chrome: "/etc/opt/chrome/native-messaging-hosts"
        case .firefox: "/usr/lib/mozilla/native-messaging-hosts"
        }
        return root + directory + "/" + hostName + ".json"
    }

    /// The browsers among `browsers` that a system-wide manifest already serves, with its path.
    public static func systemWide(
        _ browsers: [Browser], root: String = "", exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> [(browser: Browser, path: String)] {
        browsers.compactMap { browser in
            let path = systemManifestPath(browser, root: root)
            return exists(path) ? (browser, path) : nil
        }
    }

    /// What `install-browser` adds for a browser a system-wide manifest already serves: the user
    /// copy still works (it takes precedence) but is not needed.
    public static func systemWideNote(_ browser: Browser, path: String) -> String {
        "note: \(browser.rawValue) already has the host system-wide (\(path), from the deeplinker package); "
            + "this user copy takes precedence for you and is not needed"
    }
}
