import DeeplinkerCLI
import Foundation
import Testing

/// The CLI formats times and sizes without Foundation's ICU-backed formatters (which would add
/// ICU's 34 MB of data to the installed `deeplinker`); the output stays what those formatters gave.
@Suite("CLI output formatting")
struct OutputFormattingTests {
    static let microseconds: [Int64] = [
        0, 1, 999, 1_000, 1_764_198_725_123_456, 1_764_198_725_999_999, 1_751_328_000_000_000, -1, -1_500_000, 951_782_400_000_000,
    ]

    @Test("timestamps match ISO8601DateFormatter's internet date-time with fractional seconds in the local time zone")
    func timestampsAsFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = .current
        for value in Self.microseconds {
            let date = Date(timeIntervalSince1970: Double(value) / 1_000_000)
            // Foundation rounds to the millisecond where the CLI cuts: compare at whole milliseconds.
            let cut = value - ((value % 1000) + 1000) % 1000
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(cut) / 1_000_000))
            #expect(Output.timestamp(value) == expected, "\(value) (\(date))")
        }
    }

    @Test("numbers match String(format:)")
    func formatAsFoundation() {
        for value in [0.0, 0.05, 1.25, 1.35, 1023.96, 12.345, 99999.95, -2.5] {
            #expect(Output.format("%.1f", value) == String(format: "%.1f", value), "\(value)")
        }
    }
}
