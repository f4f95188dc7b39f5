import Foundation

/// The benchmark's output: rows of measurements with their ratio to the baseline and their goal,
/// rendered as aligned plain text or as a Markdown table.
final class ResultTable: @unchecked Sendable {
    /// One line of the table.
    struct Row: Sendable {
        var measurement: String
        var value: String
        var ratio: String
        var goal: String
        var verdict: String
    }

    private let lock = NSLock()
    private var rows: [Row] = []
    private var notes: [String] = []
    private var goals: [Row] = []

    /// Adds a row; `ratio`, `goal` and `verdict` may be empty.
    func add(_ measurement: String, _ value: String, ratio: String = "", goal: String = "", verdict: String = "") {
        lock.withLock { rows.append(Row(measurement: measurement, value: value, ratio: ratio, goal: goal, verdict: verdict)) }
    }

    /// Adds a line to the goal table printed after the measurements: the goal, the measured value
    /// (as the goal states it, e.g. a ratio), whether it is met, and what it was measured from.
    func goal(_ goal: String, _ value: String, met: Bool?, from source: String = "") {
        lock.withLock {
            goals.append(Row(measurement: goal, value: value, ratio: "", goal: source, verdict: met.map(Format.verdict) ?? "n/a"))
        }
    }

    /// Adds a line printed under the table.
    func note(_ text: String) {
        lock.withLock { notes.append(text) }
    }

    /// Whether anything was measured.
    var isEmpty: Bool { lock.withLock { rows.isEmpty } }

    private static let headers = ["measurement", "value", "vs Ping", "goal", "met"]

    private func cells() -> ([[String]], [String]) {
        lock.withLock { (rows.map { [$0.measurement, $0.value, $0.ratio, $0.goal, $0.verdict] }, notes) }
    }

    private static let goalHeaders = ["goal", "measured", "met", "from"]

    private func goalCells() -> [[String]] {
        lock.withLock { goals.map { [$0.measurement, $0.value, $0.verdict, $0.goal] } }
    }

    /// Aligned columns of `rows` under `headers`; the first column left-aligned, the others right.
    private static func aligned(_ headers: [String], _ body: [[String]]) -> String {
        let all = [headers] + body
        var widths = Array(repeating: 0, count: headers.count)
        for row in all {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 || i == headers.count - 1 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var out = line(headers) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in body { out += line(row) + "\n" }
        return out
    }

    /// Aligned columns for the terminal.
    func plainText() -> String {
        let (body, notes) = cells()
        let all = [Self.headers] + body
        var widths = Array(repeating: 0, count: Self.headers.count)
        for row in all {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var out = line(Self.headers) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in body { out += line(row) + "\n" }
        for note in notes { out += "  * " + note + "\n" }
        let goalRows = goalCells()
        if !goalRows.isEmpty { out += "\n" + Self.aligned(Self.goalHeaders, goalRows) }
        return out
    }

    /// A GitHub-flavoured Markdown table, notes as a list below it.
    func markdown(title: String) -> String {
        let (body, notes) = cells()
        var out = "### \(title)\n\n"
        out += "| " + Self.headers.joined(separator: " | ") + " |\n"
        out += "|---|--:|--:|--:|:-:|\n"
        for row in body {
            out += "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        if !notes.isEmpty {
            out += "\n"
            for note in notes { out += "- " + note + "\n" }
        }
        let goalRows = goalCells()
        if !goalRows.isEmpty {
            out += "\n| " + Self.goalHeaders.joined(separator: " | ") + " |\n|---|--:|:-:|---|\n"
            for row in goalRows {
                out += "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
        }
        return out
    }
}
