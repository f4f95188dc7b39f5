@testable import DeeplinkerCore

/// Renders parsed TOML without locations, so tests can compare whole documents in one line:
/// tables as `{key: value, …}` in file order (keys quoted as TOML would), strings quoted with
/// Swift's escapes, date-times tagged by kind (`odt`, `ldt`, `ld`, `lt`).
enum TOMLTestRendering {
    static func render(_ table: TOMLTable) -> String {
        "{" + table.entries.map { TOMLKeyPath([.key($0.key)]).description + ": " + render($0.value) }.joined(separator: ", ") + "}"
    }

    static func render(_ value: TOMLValue) -> String {
        switch value.kind {
        case .string(let s): s.debugDescription
        case .integer(let n): String(n)
        case .float(let d): d.isNaN ? (d.sign == .minus ? "-nan" : "nan") : "\(d)"
        case .boolean(let b): "\(b)"
        case .offsetDateTime(let text): "odt(\(text))"
        case .localDateTime(let text): "ldt(\(text))"
        case .localDate(let text): "ld(\(text))"
        case .localTime(let text): "lt(\(text))"
        case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
        case .table(let table): render(table)
        }
    }

    /// The rendered document of `text`, or `error L:C: message`.
    static func parse(_ text: String) -> String {
        do {
            return render(try TOMLDocument(parsing: text).root)
        } catch {
            return "error \(error.location.line):\(error.location.column): \(error.message)"
        }
    }
}
