import FoundationEssentials
import Glibc
import Logging
import Synchronization

/// `deeplinkerd`'s log lines on stderr (SPEC §9). Under systemd (`JOURNAL_STREAM` set) each line
/// starts with its syslog priority (`<3>` …) and has no timestamp, since journald adds both; else a
/// human-readable line with a local timestamp.
public struct DaemonLogHandler: LogHandler {
    /// How lines are written.
    public enum Format: Sendable {
        /// `<6>message key=value`: journald takes the prefix as the priority.
        case journal
        /// `2026-11-23T20:00:00.123+0000 info: message key=value`.
        case human
    }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public let format: Format
    private let write: @Sendable (String) -> Void

    /// `write` receives each finished line, newline included (stderr unless a test captures it).
    public init(format: Format, level: Logger.Level, write: @escaping @Sendable (String) -> Void = DaemonLogHandler.standardError) {
        self.format = format
        self.logLevel = level
        self.write = write
    }

    /// The format systemd asks for: journal when `JOURNAL_STREAM` is set.
    public static func format(for environment: [String: String]) -> Format {
        (environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false) ? .journal : .human
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The syslog priority journald files a level under. swift-log has no `alert`/`emergency`, so
    /// `critical` is `<2>` (crit) and `trace`, finer than debug, is `<7>` too.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    public func log(event: LogEvent) {
        var text = "\(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty {
            text += " " + merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }.joined(separator: " ")
        }
        // One entry per line: journald would split a multi-line message into entries without a
        // prefix. (Foundation's `replacingOccurrences` cost a tenth of the bus thread's time.)
        if text.utf8.contains(UInt8(ascii: "\n")) {
            text = String(decoding: text.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
        switch format {
        case .journal:
            write("<\(Self.priority(event.level))>\(text)\n")
        case .human:
            write("\(Self.timestamp()) \(event.level): \(text)\n")
        }
    }

    /// Writes a line with one `write(2)`, so lines from several threads never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = time_t(now.tv_sec)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [Int8](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        var zone = [Int8](repeating: 0, count: 8)
        let zoneCount = strftime(&zone, zone.count, "%z", &parts)
        let base = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let milliseconds = Int(now.tv_nsec) / 1_000_000
        let padded = String(milliseconds + 1_000).dropFirst()
        return base + "." + padded + String(decoding: zone[0..<zoneCount].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
