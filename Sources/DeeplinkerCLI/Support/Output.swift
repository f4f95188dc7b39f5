import FoundationEssentials
import Glibc

/// Writes the CLI's output: whole lines, flushed at once so that pipes (tests, `monitor | grep`)
/// see each line as it happens.
public enum Output {
    /// Writes `text` and a newline to stdout.
    public static func line(_ text: String = "") {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to stderr.
    public static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// One JSON document on one line (keys sorted, so output is stable).
    public static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return }
        line(text)
    }

    /// `id=12 country=FR`, keys sorted.
    public static func parameters(_ parameters: [String: String]) -> String {
        parameters.keys.sorted().map { "\($0)=\(parameters[$0]!)" }.joined(separator: " ")
    }

    /// `recipe(id=12)`, the compact form of a route.
    public static func route(_ target: String, _ parameters: [String: String]) -> String {
        "\(target)(\(Self.parameters(parameters)))"
    }

    /// A µs timestamp as local ISO 8601 with milliseconds (`2026-11-26T23:12:05.123+01:00`, `Z` in
    /// UTC), from the C library's time zone (TZ, /etc/localtime): Foundation's formatter would
    /// link ICU's data into the CLI.
    public static func timestamp(_ microseconds: Int64) -> String {
        // Whole seconds rounded down, so that the milliseconds are never negative.
        let whole = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        var seconds = time_t(whole)
        let milliseconds = Int((microseconds - whole * 1_000_000) / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = String(1000 + milliseconds).dropFirst()
        let offset = parts.tm_gmtoff
        let zone: String
        if offset == 0 {
            zone = "Z"
        } else {
            let minutes = Int32(abs(offset) / 60)
            zone = (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
        }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)\(zone)"
    }

    /// A `printf`-style rendering of one number (`"%.1f"`), as `String(format:)` gives it.
    public static func format(_ format: String, _ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
        return String(decoding: buffer.prefix(max(0, min(Int(count), buffer.count - 1))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes all of `text` to `descriptor`.
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
