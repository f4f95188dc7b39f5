import DeeplinkerCore
import DeeplinkerProtocol
import FoundationEssentials

/// Where and what `install-browser` writes (SPEC §10): a native messaging host manifest named
/// `org.deeplinker.native_host` per browser, in the user's own folders, each naming the wrapper
/// script that runs `deeplinker native-host` and allowing only the Deeplinker extension.
public struct BrowserHosts: Sendable {
    /// The browsers a host manifest is written for.
    public enum Browser: String, CaseIterable, Sendable {
        case chromium, chrome, firefox
    }

    public static let hostName = BrowserExtensionNames.hostName
    public static let chromiumExtensionID = BrowserExtensionNames.chromiumID
    public static let firefoxExtensionID = BrowserExtensionNames.firefoxID

    /// `$XDG_CONFIG_HOME` (default `~/.config`).
    public let configHome: String
    /// `$HOME`.
    public let home: String
    /// `$XDG_DATA_HOME` (default `~/.local/share`).
    public let dataHome: String

    /// Reads the folders from `environment`; nil when neither `HOME` nor the XDG variables give
    /// absolute paths.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        self.home = home
        configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
    }

    /// The folder each browser reads user-level host manifests from.
    public func directory(_ browser: Browser) -> String {
        switch browser {
        case .chromium: configHome + "/chromium/NativeMessagingHosts"
        case .chrome: configHome + "/google-chrome/NativeMessagingHosts"
        case .firefox: home + "/.mozilla/native-messaging-hosts"
        }
    }

    /// The manifest's path for `browser`.
    public func manifestPath(_ browser: Browser) -> String {
        directory(browser) + "/" + Self.hostName + ".json"
    }

    /// The wrapper the manifests name: browsers start a host by a path alone (and add arguments of
    /// their own), so it runs `deeplinker native-host` with theirs.
    public var wrapperPath: String { dataHome + "/deeplinker/native-host" }

    /// The wrapper script for the `deeplinker` at `executable`.
    public static func wrapper(executable: String) -> String {
        """
        #!/bin/sh
        # Written by `deeplinker install-browser`, removed by `deeplinker uninstall-browser`.
        # Browsers start a native messaging host by path alone, so this adds the verb.
        exec \(shellQuoted(executable)) native-host "$@"

        """
    }

    /// The host manifest for `browser`, naming the wrapper at `wrapperPath`.
    public static func manifest(_ browser: Browser, wrapperPath: String) -> String {
        var members: [String: JSONValue] = [
            "name": .string(hostName),
            "description": .string("Deeplinker: opens links to verified sites in their apps"),
            "path": .string(wrapperPath),
            "type": .string("stdio"),
        ]
        switch browser {
        case .chromium, .chrome: members["allowed_origins"] = .array([.string("chrome-extension://\(chromiumExtensionID)/")])
        case .firefox: members["allowed_extensions"] = .array([.string(firefoxExtensionID)])
        }
        return JSONValue.object(members).rendered + "\n"
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
