import Foundation

/// Writes the CLI's output: whole lines, flushed at once so that pipes (tests, `monitor | grep`)
/// see each line as it happens.
public enum Output {
    /// Writes `text` and a newline to stdout.
    public static func line(_ text: String = "") {
        write(text + "\n", to: FileHandle.standardOutput)
    }

    /// Writes `text` and a newline to stderr.
    public static func error(_ text: String) {
        write(text + "\n", to: FileHandle.standardError)
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

    /// A µs timestamp as local ISO 8601 with milliseconds.
    public static func timestamp(_ microseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = .current
        return formatter.string(from: date)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
