import DBusKit
import DeeplinkerDaemon
import Foundation
import Logging
import TaskThreads
import Testing
import DeeplinkerTestSupport

/// Log lines (SPEC §9): syslog priority prefixes and no timestamp under journald, a timestamp
/// otherwise; every invocation outcome with app, id, source and target, never parameter values.
@Suite("deeplinkerd log lines")
struct JournalLoggingTests {
    /// A parameter value and a payload value that must never reach the log.
    static let secret = "73914286"
    static let payloadSecret = "sesame-payload-5521"

    /// Runs the daemon, makes a stored, a rejected and a failed-to-route invocation, stops it and
    /// returns its stderr.
    func runInvocations(environment: [String: String], logLevel: String) async throws -> String {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let daemon = try await f.spawnDaemonProcess(arguments: ["--log-level", logLevel], environment: environment)
            try await f.call("OpenURL", [.string("com.bestrecipes.App"), .string("bestrecipes://recipe/\(Self.secret)")])
            // A refusal that names the bad value in its D-Bus error: recorded as rejected.
            _ = try? await f.call("OpenURL", [.string("com.bestrecipes.App"), .string("bestrecipes://nowhere/\(Self.secret)")])
            _ = try? await f.call("ActivateNotification", [.string("com.bestrecipes.App"), .string("{\"kind\": \"\(Self.payloadSecret)\"}"), .string("default")])
            // The outcome lines are written before the signals leave: once both are seen, they are logged.
            try await f.changes.wait(count: 2) { $0.status == "rejected" }
            _ = try await f.changes.first { $0.status == "pending" }
            daemon.signal(SIGTERM)
            let (status, stderr) = try await daemon.finish()
            #expect(status == 0)
            return stderr
        }
    }

    @Test("with JOURNAL_STREAM set: <N> prefixes, no timestamp, outcomes at info with id, source and target, no values")
    func journalForm() async throws {
        let stderr = try await runInvocations(environment: ["JOURNAL_STREAM": "8:12345"], logLevel: "debug")
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.range(of: #"^<[2-7]>"#, options: .regularExpression) != nil, "no priority: \(line)")
            #expect(line.range(of: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"#, options: .regularExpression) == nil, "own timestamp: \(line)")
            #expect(!line.contains(Self.secret), "parameter value logged: \(line)")
            #expect(!line.contains(Self.payloadSecret), "payload logged: \(line)")
        }
        let stored = try #require(lines.first { $0.contains(" stored") })
        #expect(stored.range(of: #"^<6>invocation [0-9a-f-]+ of com\.bestrecipes\.App \(source url, target recipe\) stored$"#, options: .regularExpression) != nil, "\(stored)")
        let rejected = lines.filter { $0.contains(" rejected") }
        #expect(rejected.count == 2)
        #expect(rejected.allSatisfy { $0.hasPrefix("<5>") && $0.contains("of com.bestrecipes.App (source") }, "\(rejected)")
        #expect(rejected.contains { $0.hasSuffix("rejected: org.deeplinker.Error.NoRoute") }, "\(rejected)")
        #expect(lines.contains { $0.hasPrefix("<6>shutting down") })
    }

    @Test("without JOURNAL_STREAM: a timestamp and the level, no prefix; --log-level warning hides info")
    func humanForm() async throws {
        let verbose = try await runInvocations(environment: [:], logLevel: "info")
        let lines = verbose.split(separator: "\n").map(String.init)
        let stored = try #require(lines.first { $0.contains(" stored") })
        #expect(stored.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4} info: invocation "#, options: .regularExpression) != nil, "\(stored)")
        #expect(!verbose.contains(Self.secret))
        let quiet = try await runInvocations(environment: [:], logLevel: "warning")
        #expect(!quiet.contains(" stored"), "\(quiet)")
        #expect(!quiet.contains("shutting down"))
    }

    @Test("syslog priorities: critical 2, error 3, warning 4, notice 5, info 6, debug and trace 7")
    func priorities() {
        let expected: [Logger.Level: Int] = [.critical: 2, .error: 3, .warning: 4, .notice: 5, .info: 6, .debug: 7, .trace: 7]
        for (level, priority) in expected { #expect(DaemonLogHandler.priority(level) == priority) }
        #expect(DaemonLogHandler.format(for: ["JOURNAL_STREAM": "8:1"]) == .journal)
        #expect(DaemonLogHandler.format(for: [:]) == .human)
    }

    @Test("a message with newlines is one line: journald would make each line an entry without a priority")
    func oneLinePerMessage() {
        let written = LockedLines()
        var logger = Logger(label: "test") { _ in DaemonLogHandler(format: .journal, level: .info, write: written.append) }
        logger[metadataKey: "file"] = "a\nb.toml"
        logger.warning("route file broken:\nline 3: bad key")
        #expect(written.lines == ["<4>route file broken: line 3: bad key file=a b.toml\n"])
    }
}

/// Collects a log handler's lines.
private final class LockedLines: Sendable {
    private let stored = LockedValue<[String]>([])
    var lines: [String] { stored.withLock { $0 } }
    @Sendable func append(_ line: String) { stored.withLock { $0.append(line) } }
}
