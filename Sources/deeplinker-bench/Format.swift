import Foundation

/// Number formatting shared by the benchmarks.
enum Format {
    /// Microseconds with one decimal below 100, none above.
    static func micros(_ value: Double) -> String {
        value < 100 ? String(format: "%.1f µs", value) : String(format: "%.0f µs", value)
    }

    /// Calls per second, thousands separated by a thin gap.
    static func rate(_ value: Double) -> String {
        grouped(Int(value.rounded())) + " calls/s"
    }

    /// A ratio such as `2.41×`.
    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }

    /// A percentage such as `61%`.
    static func percent(_ value: Double) -> String {
        String(format: "%.0f%%", value * 100)
    }

    /// Kibibytes as MiB.
    static func mebibytes(kib: Int) -> String {
        String(format: "%.1f MiB", Double(kib) / 1024)
    }

    /// An integer with `,` every three digits.
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// "yes" / "NO" for a goal.
    static func verdict(_ met: Bool) -> String { met ? "yes" : "NO" }
}
