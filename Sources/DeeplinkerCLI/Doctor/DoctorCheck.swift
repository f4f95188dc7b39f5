import FoundationEssentials

/// One line of `deeplinker doctor`: a step of the path a link takes, whether it works, and when it
/// does not, what to run (or which file and line to edit) to fix it.
public struct DoctorCheck: Codable, Sendable, Hashable {
    /// What was checked (`daemon`, `scheme bestrecipes`, `route file /path/app.toml`).
    public var name: String
    public var ok: Bool
    /// What was found: the good state, or what is wrong.
    public var detail: String
    /// A command to run or a `file:line` to edit; "" when `ok`.
    public var fix: String

    public init(name: String, ok: Bool, detail: String, fix: String = "") {
        self.name = name
        self.ok = ok
        self.detail = Self.oneLine(detail)
        self.fix = ok ? "" : Self.oneLine(fix)
    }

    /// Tool and bus messages may span lines; a check is one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmed }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    public static func pass(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, ok: true, detail: detail)
    }

    public static func fail(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, ok: false, detail: detail, fix: fix)
    }

    /// `ok    daemon: running (1.1.0)` or `FAIL  scheme x: ... -> fix: deeplinker install-desktop ID`.
    public var line: String {
        let head = (ok ? "ok    " : "FAIL  ") + name + ": " + detail
        return fix.isEmpty ? head : head + " -> fix: " + fix
    }
}

extension StringProtocol {
    /// Without leading and trailing white space (FoundationEssentials has no `trimmingCharacters`).
    var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
