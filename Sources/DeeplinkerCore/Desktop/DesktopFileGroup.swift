/// One `[group]` of a desktop-entry file: the comments just above its header (they travel with
/// the group, as in GLib), the header line as written, and its lines in order.
public struct DesktopFileGroup: Sendable, Hashable {
    public var name: String
    /// Comment (and blank) lines directly above the header.
    public var leading: [DesktopFileLine]
    public var header: String
    public var lines: [DesktopFileLine]

    public init(name: String, leading: [DesktopFileLine] = [], header: String? = nil, lines: [DesktopFileLine] = []) {
        self.name = name
        self.leading = leading
        self.header = header ?? "[\(name)]"
        self.lines = lines
    }

    /// The raw (escaped) value of `key`; the last one wins when a key repeats, as in GLib.
    public func rawValue(_ key: String) -> String? {
        for line in lines.reversed() {
            if case .entry(let k, let value, _) = line, k == key { return value }
        }
        return nil
    }

    /// Every key in order, with locales (`Name`, `Name[fr]`, ...).
    public var keys: [String] { lines.compactMap(\.key) }
}
