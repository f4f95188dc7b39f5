extension DesktopFile {
    /// Sets `key` in `group` to `value` (unescaped; it is escaped here). An existing entry keeps
    /// its place; a new one goes after the group's last entry; a missing group is appended.
    public mutating func setValue(_ value: String, for key: String, in group: String = DesktopFile.mainGroup) {
        setRawValue(Self.escape(value), for: key, in: group)
    }

    /// Sets a list value (`Actions`, `MimeType`, ...): each item escaped and ended by `;`.
    public mutating func setList(_ items: [String], for key: String, in group: String = DesktopFile.mainGroup) {
        setRawValue(Self.escapeList(items), for: key, in: group)
    }

    /// Sets `key` to `raw`, written exactly as given (already escaped, e.g. an `Exec` line).
    /// When the key repeats, the first occurrence takes the value and the others are removed.
    public mutating func setRawValue(_ raw: String, for key: String, in group: String = DesktopFile.mainGroup) {
        endsWithNewline = true
        let line = DesktopFileLine.entry(key, rawValue: raw)
        guard let g = groupList.firstIndex(where: { $0.name == group }) else {
            appendGroup(group, lines: [line])
            return
        }
        var lines = groupList[g].lines
        if let first = lines.firstIndex(where: { $0.key == key }) {
            lines[first] = line
            lines = lines.enumerated().filter { $0.offset <= first || $0.element.key != key }.map(\.element)
        } else {
            let after = lines.lastIndex { $0.key != nil }.map { $0 + 1 } ?? 0
            lines.insert(line, at: after)
        }
        groupList[g].lines = lines
    }

    /// Removes `key` from `group`; with `includingLocalized`, its translations (`key[xx]`) too.
    public mutating func removeKey(_ key: String, in group: String = DesktopFile.mainGroup, includingLocalized: Bool = false) {
        guard let g = groupList.firstIndex(where: { $0.name == group }) else { return }
        groupList[g].lines.removeAll { line in
            guard let k = line.key else { return false }
            return k == key || (includingLocalized && k.hasPrefix(key + "[") && k.hasSuffix("]"))
        }
        endsWithNewline = true
    }

    /// Removes every group whose name satisfies `predicate`, with the comments above its header;
    /// blank lines left at the end of the file are dropped.
    public mutating func removeGroups(where predicate: (String) -> Bool) {
        let before = groupList.count
        groupList.removeAll { predicate($0.name) }
        guard groupList.count != before else { return }
        endsWithNewline = true
        trimTrailingBlankLines()
    }

    /// Removes the group `name`, if present.
    public mutating func removeGroup(_ name: String) {
        removeGroups { $0 == name }
    }

    /// Appends a group `name` with `lines`, separated from the previous group by one blank line.
    /// Replaces an existing group of that name in place.
    public mutating func appendGroup(_ name: String, lines: [DesktopFileLine]) {
        endsWithNewline = true
        if let g = groupList.firstIndex(where: { $0.name == name }) {
            groupList[g].lines = lines
            return
        }
        trimTrailingBlankLines()
        let leading: [DesktopFileLine] = groupList.isEmpty && preamble.isEmpty ? [] : [.blank(raw: "")]
        groupList.append(DesktopFileGroup(name: name, leading: leading, lines: lines))
    }

    /// Appends a group of `key=value` entries, each value escaped.
    public mutating func appendGroup(_ name: String, entries: [(key: String, value: String)]) {
        appendGroup(name, lines: entries.map { DesktopFileLine.entry($0.key, rawValue: Self.escape($0.value)) })
    }

    private mutating func trimTrailingBlankLines() {
        func isBlank(_ line: DesktopFileLine) -> Bool { if case .blank = line { true } else { false } }
        if groupList.isEmpty {
            while let last = preamble.last, isBlank(last) { preamble.removeLast() }
        } else {
            while let last = groupList[groupList.count - 1].lines.last, isBlank(last) {
                groupList[groupList.count - 1].lines.removeLast()
            }
        }
    }
}
