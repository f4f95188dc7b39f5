import DBusKit
import Foundation

/// Headless Chromium or Firefox ESR with the Deeplinker extension, driven through
/// `Tests/Browser/browser-driver.py` (selenium under Debian's `/usr/bin/python3` for Chromium, the
/// Marionette protocol for Firefox) in a network namespace of its own, where the driver serves the
/// test pages over HTTPS on 127.0.0.1:443 for every host name. One JSON command per line; each
/// answer is awaited with a time-out.
public final class BrowserDriver: Sendable {
    public enum Browser: String, Sendable, CaseIterable {
        case chromium, firefox

        /// Whether this machine can run it: root (for the network namespace), iproute2, and the
        /// browser with its driver.
        public var isAvailable: Bool {
            let executable = { (path: String) in FileManager.default.isExecutableFile(atPath: path) }
            guard getuid() == 0, executable("/usr/bin/unshare"), executable("/usr/bin/python3"),
                  executable("/usr/sbin/ip") || executable("/usr/bin/ip") else { return false }
            switch self {
            case .chromium:
                return executable("/usr/bin/chromium") && executable("/usr/bin/chromedriver")
                    && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")
            case .firefox:
                return executable("/usr/bin/firefox-esr")
            }
        }
    }

    /// A link on every page the driver serves.
    public struct Link: Sendable {
        public var id: String
        public var href: String
        public var target: String?

        public init(_ id: String, _ href: String, target: String? = nil) {
            self.id = id
            self.href = href
            self.target = target
        }
    }

    /// What `state` reports.
    public struct State: Sendable {
        public let url: String
        public let tabs: Int
        /// `host/path` of every request the page server answered, in order.
        public let requests: [String]
    }

    public static let extensionDirectory = TestFiles.repository("Browser/extension")
    public static let script = TestFiles.repository("Tests/Browser/browser-driver.py")
    public static let runInNetworkNamespace = TestFiles.repository("Tests/Browser/run-in-netns")

    /// The browsers this machine can run.
    public static var available: [Browser] { Browser.allCases.filter(\.isAvailable) }

    public static let unavailableReason = "needs root, iproute2, and chromium with chromium-driver and python3-selenium, or firefox-esr"

    private let process: TestProcess

    public let browser: Browser

    /// Starts the page server and the browser with `userDataDir` as its profile (Chromium finds
    /// the host in its `NativeMessagingHosts/`, Firefox in `$HOME/.mozilla/native-messaging-hosts`)
    /// and `environment` (the native host inherits it: the bus address).
    public init(_ browser: Browser, links: [Link], userDataDir: String, extensionID: String, environment: [String: String]) async throws {
        self.browser = browser
        let config: [String: Any] = [
            "browser": browser.rawValue, "extension": Self.extensionDirectory, "extension_id": extensionID, "user_data_dir": userDataDir,
            "links": links.map { link -> [String: String] in
                var entry = ["id": link.id, "href": link.href]
                if let target = link.target { entry["target"] = target }
                return entry
            },
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
        process = try TestProcess(
            executable: Self.runInNetworkNamespace, arguments: ["/usr/bin/python3", Self.script, text], environment: environment)
        do {
            _ = try await process.stdoutLines.next(timeout: .seconds(90))
        } catch {
            throw DBusError.failed("the \(browser) driver did not start: \(error); stderr: \(process.stderr)")
        }
    }

    /// Sends one command and returns its answer; an `error` answer throws.
    @discardableResult
    public func command(_ command: [String: String], timeout: Duration = .seconds(60)) async throws -> [String: Any] {
        process.send(String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self))
        let line: String
        do {
            line = try await process.stdoutLines.next(timeout: timeout)
        } catch {
            throw DBusError.failed("no answer to \(command): \(error); stderr: \(process.stderr)")
        }
        let answer = try DaemonFixture.json(line)
        if let error = answer["error"] as? String { throw DBusError.failed("\(command["cmd"] ?? ""): \(error)") }
        return answer
    }

    /// Waits until the extension's popup lists `domain` (its claims are loaded).
    public func ready(listing domain: String) async throws {
        try await command(["cmd": "ready", "domain": domain])
    }

    /// Loads `url` as if typed into the address bar; returns the monotonic ns when it started and loaded.
    @discardableResult
    public func get(_ url: String) async throws -> (started: Int64, loaded: Int64) {
        let answer = try await command(["cmd": "get", "url": url])
        return ((answer["started"] as? NSNumber)?.int64Value ?? 0, (answer["loaded"] as? NSNumber)?.int64Value ?? 0)
    }

    /// Clicks the link `id` on the current page (with `modifier` "ctrl" or "shift" held); returns
    /// the monotonic ns just before the click.
    @discardableResult
    public func click(_ id: String, modifier: String? = nil) async throws -> Int64 {
        var command = ["cmd": "click", "id": id]
        if let modifier { command["modifier"] = modifier }
        return ((try await self.command(command))["clicked"] as? NSNumber)?.int64Value ?? 0
    }

    /// Opens the extension's popup and unticks `domain`: links to it stay in the browser.
    public func keepInBrowser(_ domain: String) async throws {
        try await ready(listing: domain)
        try await command(["cmd": "click", "selector": "input[data-domain=\"\(domain)\"]"])
    }

    /// Waits until the tab shows `url`; returns the monotonic ns when it did.
    @discardableResult
    public func waitForURL(_ url: String) async throws -> Int64 {
        ((try await command(["cmd": "wait_url", "url": url]))["at"] as? NSNumber)?.int64Value ?? 0
    }

    /// Waits until the page server was asked for `request` (`host/path`), in any tab.
    public func waitForRequest(_ request: String) async throws {
        try await command(["cmd": "wait_request", "request": request])
    }

    public func state() async throws -> State {
        let answer = try await command(["cmd": "state"])
        return State(url: answer["url"] as? String ?? "", tabs: answer["tabs"] as? Int ?? 0, requests: answer["requests"] as? [String] ?? [])
    }

    /// The current page's text.
    public func text() async throws -> String {
        try await command(["cmd": "text"])["text"] as? String ?? ""
    }

    /// Waits until the current page has an element matching the CSS `selector`.
    public func wait(for selector: String) async throws {
        try await command(["cmd": "wait", "selector": selector])
    }

    /// Runs `script` in the current page as the page's own script (a returned promise is awaited);
    /// its result as JSON text.
    @discardableResult
    public func script(_ script: String) async throws -> String {
        try await command(["cmd": "script", "script": script])["result"] as? String ?? "null"
    }

    /// Quits the browser and the driver.
    public func quit() async {
        _ = try? await command(["cmd": "quit"])
        process.closeInput()
        _ = try? await process.waitForExit(timeout: .seconds(30))
    }

    deinit { process.stop() }
}
