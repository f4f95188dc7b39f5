import FoundationEssentials

/// One line of `deeplinker doctor`: a step of the path a link takes, whether it works, and when it
/// does not, what to run (or which file and line to edit) to fix it. A warning is a likely
/// mistake that need not be one (an app not installed yet): it names its fix but does not fail.
public struct DoctorCheck: Codable, Sendable, Hashable {
    /// What was checked (`daemon`, `scheme bestrecipes`, `route file /path/app.toml`).
    public var name: String
    /// False when the check failed (doctor then exits 12); a warning is ok.
    public var ok: Bool
    /// A passing check that still names something to look at, with its fix.
    public var warning: Bool
    /// What was found: the good state, or what is wrong.
    public var detail: String
    /// A command to run or a `file:line` to edit; "" when `ok` and no warning.
    public var fix: String

    public init(name: String, ok: Bool, warning: Bool = false, detail: String, fix: String = "") {
        self.name = name
        self.ok = ok
        self.warning = ok && warning
        self.detail = Self.oneLine(detail)
        self.fix = ok && !warning ? "" : Self.oneLine(fix)
    }

    enum CodingKeys: String, CodingKey { case name, ok, warning, detail, fix }

    /// Reads `warning` as false when absent (the JSON of doctors before it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name), ok: try container.decode(Bool.self, forKey: .ok),
            warning: try container.decodeIfPresent(Bool.self, forKey: .warning) ?? false,
            detail: try container.decode(String.self, forKey: .detail), fix: try container.decode(String.self, forKey: .fix))
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

    public static func warn(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, ok: true, warning: true, detail: detail, fix: fix)
    }

    /// `ok    daemon: running (1.1.0)`, `WARN  app x: ... -> fix: ...` or
    /// `FAIL  scheme x: ... -> fix: deeplinker install-desktop ID`.
    public var line: String {
        let head = (ok ? (warning ? "WARN  " : "ok    ") : "FAIL  ") + name + ": " + detail
        return fix.isEmpty ? head : head + " -> fix: " + fix
    }
}

extension StringProtocol {
    /// Without leading and trailing white space (FoundationEssentials has no `trimmingCharacters`).
    var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
