/// A TOML table: its keys in the order they were first written, each with where the key is
/// written and its value. Lookups by key are O(1).
public struct TOMLTable: Sendable, Hashable {
    /// One key of the table.
    public struct Entry: Sendable, Hashable {
        public var key: String
        /// Where the key is written: the last part of a dotted key (`id` in `recipe.id = 1`), the
        /// `[` of the header that defined the table or array of tables, or the part of a dotted key
        /// or header that made the table implicitly.
        public var keyLocation: TextLocation
        public var value: TOMLValue

        public init(key: String, keyLocation: TextLocation, value: TOMLValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public private(set) var entries: [Entry] = []
    /// Positions by key, kept once the table has more than `indexedFrom` keys; below that a scan
    /// of the keys is faster than hashing (most tables of a route file have a handful).
    private var positions: [String: Int]?
    static let indexedFrom = 8

    public init() {}

    /// A table of `entries`; a key given twice keeps its first entry.
    public init(_ entries: [Entry]) {
        for entry in entries where position(of: entry.key) == nil { append(entry) }
    }

    /// The keys in the order they were first written.
    public var keys: [String] { entries.map(\.key) }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    public subscript(key: String) -> TOMLValue? {
        position(of: key).map { entries[$0].value }
    }

    /// The entry of `key` (its key location and value).
    public func entry(_ key: String) -> Entry? {
        position(of: key).map { entries[$0] }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return entries.firstIndex { $0.key == key }
    }

    /// Adds `entry` at the end; the caller has made sure the key is new.
    mutating func append(_ entry: Entry) {
        entries.append(entry)
        if positions != nil {
            positions?[entry.key] = entries.count - 1
        } else if entries.count > Self.indexedFrom {
            positions = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public static func == (a: TOMLTable, b: TOMLTable) -> Bool { a.entries == b.entries }
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}
