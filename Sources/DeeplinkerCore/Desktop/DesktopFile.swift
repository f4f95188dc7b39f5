/// A desktop-entry file (freedesktop Desktop Entry Specification) kept losslessly: every group,
/// key, localized key (`Name[fr]`), comment and blank line in order, so that an unchanged file
/// renders back byte for byte and an edit touches only the lines it names. Pure: text in, text out.
public struct DesktopFile: Sendable, Hashable {
    /// The main group's name.
    public static let mainGroup = "Desktop Entry"

    /// Comments and blank lines before the first group.
    public var preamble: [DesktopFileLine]
    /// The groups in file order.
    public var groupList: [DesktopFileGroup]
    /// Whether the text ended with a newline (an edited file always does).
    public var endsWithNewline: Bool

    /// An empty file.
    public init() {
        preamble = []
        groupList = []
        endsWithNewline = true
    }

    /// Parses `text`. Refuses, with the line and column, a key outside any group, a malformed
    /// group header, a group that appears twice, a line that is no comment, group or `key=value`,
    /// and a malformed key.
    public init(parsing text: String) throws(DesktopFileError) {
        self.init()
        guard !text.isEmpty else { return }
        // Split on the byte, not the Character: "\r\n" is one Character in Swift.
        var rawLines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        endsWithNewline = text.utf8.last == UInt8(ascii: "\n")
        if endsWithNewline { rawLines.removeLast() }
        var seen: [String: Int] = [:]
        var pending: [DesktopFileLine] = []
        for (index, raw) in rawLines.enumerated() {
            let number = index + 1
            let content = raw.drop { $0 == " " || $0 == "\t" }
            let indent = raw.count - content.count
            let trimmed = content.unicodeScalars.last == "\r" ? content.dropLast() : content
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) {
                pending.append(.blank(raw: raw))
            } else if trimmed.first == "#" {
                pending.append(.comment(raw: raw))
            } else if trimmed.first == "[" {
                let name = try Self.groupName(trimmed, line: number, indent: indent)
                if let first = seen[name] {
                    throw DesktopFileError(line: number, column: indent + 1, message: "group [\(name)] appears again (first on line \(first))")
                }
                seen[name] = number
                let leading = attachLeading(&pending)
                groupList.append(DesktopFileGroup(name: name, leading: leading, header: raw, lines: []))
            } else {
                guard !groupList.isEmpty else {
                    throw DesktopFileError(line: number, column: indent + 1, message: "\"\(trimmed)\" comes before the first [group]")
                }
                let (key, value) = try Self.keyValue(trimmed, line: number, indent: indent)
                groupList[groupList.count - 1].lines += pending
                pending = []
                groupList[groupList.count - 1].lines.append(.entry(key: key, value: value, raw: raw))
            }
        }
        if groupList.isEmpty { preamble += pending } else { groupList[groupList.count - 1].lines += pending }
    }

    /// Splits the comments and blank lines seen since the last entry: those after the last blank
    /// line go above the next header; the rest stay at the end of the current group (or preamble).
    private mutating func attachLeading(_ pending: inout [DesktopFileLine]) -> [DesktopFileLine] {
        let split = (pending.lastIndex { if case .blank = $0 { true } else { false } }).map { $0 + 1 } ?? 0
        let stay = Array(pending[..<split])
        let leading = Array(pending[split...])
        if groupList.isEmpty { preamble += stay } else { groupList[groupList.count - 1].lines += stay }
        pending = []
        return leading
    }

    /// The name in a `[name]` header; trailing spaces after `]` are accepted, as GLib does.
    private static func groupName(_ text: Substring, line: Int, indent: Int) throws(DesktopFileError) -> String {
        var name = ""
        var index = text.index(after: text.startIndex)
        var column = indent + 2
        while index < text.endIndex, text[index] != "]" {
            let c = text[index]
            if c == "[" || c.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                throw DesktopFileError(line: line, column: column, message: "group name may not contain \(describe(c))")
            }
            name.append(c)
            index = text.index(after: index)
            column += 1
        }
        guard index < text.endIndex else {
            throw DesktopFileError(line: line, column: column, message: "group header \"\(text)\" has no closing ]")
        }
        guard !name.isEmpty else { throw DesktopFileError(line: line, column: column, message: "empty group name") }
        let rest = text[text.index(after: index)...]
        if let bad = rest.firstIndex(where: { $0 != " " && $0 != "\t" }) {
            let at = column + 1 + rest.distance(from: rest.startIndex, to: bad)
            throw DesktopFileError(line: line, column: at, message: "\"\(rest[bad...])\" after the group header [\(name)]")
        }
        return name
    }

    /// The key (with locale) and the escaped value of a `key = value` line.
    private static func keyValue(_ text: Substring, line: Int, indent: Int) throws(DesktopFileError) -> (String, String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw DesktopFileError(line: line, column: indent + 1, message: "\"\(text)\" is not a key=value line, a [group] or a # comment")
        }
        let keyText = text[..<equals]
        let key = String(keyText.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard !key.isEmpty else { throw DesktopFileError(line: line, column: indent + 1, message: "a line has an empty key") }
        var column = indent + 1
        var inLocale = false
        var localeClosed = false
        for c in key {
            let bad: Bool
            if localeClosed {
                bad = true
            } else if c == "[" {
                bad = inLocale || column == indent + 1
                inLocale = true
            } else if c == "]" {
                bad = !inLocale || key.hasSuffix("[]")
                localeClosed = true
            } else {
                bad = c == " " || c == "\t" || c.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }
            }
            if bad { throw DesktopFileError(line: line, column: column, message: "key \"\(key)\" may not contain \(describe(c)) here") }
            column += 1
        }
        if inLocale && !localeClosed {
            throw DesktopFileError(line: line, column: column, message: "key \"\(key)\" has no closing ] after its locale")
        }
        var value = text[text.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
        if value.unicodeScalars.last == "\r" { value = value.dropLast() }
        return (key, String(value))
    }

    private static func describe(_ c: Character) -> String {
        c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) ? "\"\(c)\"" : "a control character"
    }

    /// The group names in file order.
    public var groups: [String] { groupList.map(\.name) }

    /// The group named `name`, if any.
    public func group(_ name: String) -> DesktopFileGroup? {
        groupList.first { $0.name == name }
    }

    /// The value of `key` (exactly: `Name` is the unlocalized name, `Name[fr]` the French one) in
    /// `group`, unescaped (`\s \n \t \r \\`); nil when absent.
    public func value(_ key: String, in group: String = DesktopFile.mainGroup) -> String? {
        self.group(group)?.rawValue(key).map(Self.unescape)
    }

    /// The 1-based line of the entry ``value(_:in:)`` reads (the last `key` of `group`), for
    /// messages that point into the file; nil when absent.
    public func line(of key: String, in group: String = DesktopFile.mainGroup) -> Int? {
        var number = preamble.count
        var found: Int?
        for g in groupList {
            number += g.leading.count + 1
            for line in g.lines {
                number += 1
                if g.name == group, line.key == key { found = number }
            }
        }
        return found
    }

    /// A list value (`Actions`, `MimeType`, ...) split on unescaped `;`, each item unescaped
    /// (`\;` → `;`); a trailing `;` ends the list. Nil when the key is absent.
    public func list(_ key: String, in group: String = DesktopFile.mainGroup) -> [String]? {
        guard let raw = self.group(group)?.rawValue(key) else { return nil }
        var items: [String] = []
        var current = ""
        var escaped = false
        for c in raw {
            if escaped {
                current += c == ";" ? ";" : "\\" + String(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == ";" {
                items.append(Self.unescape(current))
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current += "\\" }
        if !current.isEmpty { items.append(Self.unescape(current)) }
        return items
    }

    /// The text of the file: unchanged input comes back byte for byte.
    public func rendered() -> String {
        var lines = preamble.map(\.raw)
        for group in groupList {
            lines += group.leading.map(\.raw)
            lines.append(group.header)
            lines += group.lines.map(\.raw)
        }
        guard !lines.isEmpty else { return "" }
        return lines.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
    }
}
