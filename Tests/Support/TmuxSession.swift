import Foundation

/// A real terminal for full-screen programs: a tmux server of its own (`tmux -L NAME`, no user
/// config) running one command in a detached session of a given size. The screen is read with
/// `capture-pane`, keys are typed with `send-keys`, and the window is resized with
/// `resize-window`. Waits poll the screen a bounded number of times; nothing sleeps a fixed time.
public final class TmuxSession: Sendable {
    public let socketName: String

    /// Starts `command` (run by `sh -c`) in a `width`x`height` window; the pane stays after the
    /// command ends so its last screen can be read.
    public init(command: String, width: Int = 120, height: Int = 30, environment: [String: String] = [:]) async throws {
        socketName = "deeplinker-test-\(UUID().uuidString.prefix(8))"
        let start = try await tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "sh"], environment: environment)
        guard start.status == 0 else { throw TmuxError(message: "tmux new-session: \(start.stderr)") }
        _ = try await tmux(["set-option", "-g", "remain-on-exit", "on"])
        _ = try await tmux(["respawn-pane", "-k", command])
    }

    /// Runs `body` with a session that is always ended afterwards, whether `body` returns or throws.
    public static func with<T>(
        command: String, width: Int = 120, height: Int = 30, _ body: (TmuxSession) async throws -> T
    ) async throws -> T {
        let session = try await TmuxSession(command: command, width: width, height: height)
        do {
            let result = try await body(session)
            await session.kill()
            return result
        } catch {
            await session.kill()
            throw error
        }
    }

    /// Runs `tmux -L SOCKET ARGS`.
    @discardableResult
    public func tmux(_ arguments: [String], environment: [String: String] = [:]) async throws -> TestProcess.Result {
        try await TestProcess.run(
            "/usr/bin/tmux", ["-L", socketName] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// The visible screen, one string per line (trailing spaces trimmed by tmux).
    public func capture() async throws -> [String] {
        try await tmux(["capture-pane", "-p"]).stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A tmux format of the pane (`#{alternate_on}`, `#{pane_dead}`).
    public func format(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", format]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen (every 50 ms, at most `timeout`) until `condition` holds; returns that screen.
    @discardableResult
    public func waitForScreen(
        timeout: Duration = .seconds(20), _ what: String, _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var screen: [String] = []
        while ContinuousClock.now < deadline {
            screen = try await capture()
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxError(message: "timed out waiting for \(what); the screen:\n" + screen.joined(separator: "\n"))
    }

    /// Waits until a line of the screen contains `text`.
    @discardableResult
    public func waitForText(_ text: String, timeout: Duration = .seconds(20)) async throws -> [String] {
        try await waitForScreen(timeout: timeout, "\"\(text)\"") { $0.contains { $0.contains(text) } }
    }

    /// Types keys (tmux key names: `q`, `Enter`, `Up`, `C-c`; `literal` sends text as it is).
    public func sendKeys(_ keys: [String], literal: Bool = false) async throws {
        try await tmux(["send-keys"] + (literal ? ["-l"] : []) + keys)
    }

    public func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Ends the tmux server (and whatever still runs in it).
    public func kill() async {
        _ = try? await tmux(["kill-server"])
    }
}

public struct TmuxError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
