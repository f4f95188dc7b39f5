/// A table while its document is being parsed: mutable and shared by reference, so that headers
/// and dotted keys can reach into it, and marked with how it was made, which decides what may
/// still add to it (TOML 1.0's "defined only once" rules). `build()` turns it into a `TOMLTable`.
final class TOMLTableBuilder {
    /// How the table came to exist.
    enum Origin: Equatable {
        /// The document's root table.
        case root
        /// Defined by a `[header]` or as an element of `[[header]]`.
        case header
        /// Made as the parent of a header (`a` of `[a.b]`): a later `[a]` may still define it once.
        case implicit
        /// Made by a dotted key (`a` of `a.b = 1`) while the table section `section` was being read:
        /// more dotted keys of that section may add to it, no header may define it.
        case dotted(section: Int)
        /// An inline table (`{ … }`): complete when its closing brace is read.
        case inline
    }

    /// One key's content while parsing.
    enum Member {
        /// A finished value: a scalar, a static array or an inline table.
        case value(TOMLValue)
        case table(TOMLTableBuilder)
        /// The elements of an array of tables (`[[header]]`) and where the first header is.
        case tableArray([TOMLTableBuilder], location: TextLocation)
    }

    struct Entry {
        var key: String
        var keyLocation: TextLocation
        var member: Member
    }

    var origin: Origin
    /// Where the table's value starts (see `TOMLValue.location`).
    var location: TextLocation
    /// Where it was defined, for "defined twice" messages: header, inline table or first dotted key.
    var definedAt: TextLocation
    /// The key path from the root, for messages.
    let path: TOMLKeyPath
    /// Tables and arrays above it (the root is at 0).
    let depth: Int
    private(set) var entries: [Entry] = []
    /// Positions by key once there are more than `TOMLTable.indexedFrom` keys (see there).
    private var positions: [String: Int]?

    init(origin: Origin, location: TextLocation, path: TOMLKeyPath, depth: Int) {
        self.origin = origin
        self.location = location
        self.definedAt = location
        self.path = path
        self.depth = depth
    }

    subscript(key: String) -> Entry? {
        position(of: key).map { entries[$0] }
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return entries.firstIndex { $0.key == key }
    }

    /// Adds a key the table does not have yet.
    func add(_ key: String, at keyLocation: TextLocation, _ member: Member) {
        entries.append(Entry(key: key, keyLocation: keyLocation, member: member))
        if positions != nil {
            positions?[key] = entries.count - 1
        } else if entries.count > TOMLTable.indexedFrom {
            positions = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Moves the key of `key` to where a header now defines its table.
    func setKeyLocation(_ key: String, _ location: TextLocation) {
        guard let position = position(of: key) else { return }
        entries[position].keyLocation = location
    }

    /// Appends `element` to the array of tables at `key`.
    func appendTableArrayElement(_ key: String, _ element: TOMLTableBuilder) {
        guard let position = position(of: key), case .tableArray(var elements, let location) = entries[position].member else { return }
        // Let go of the entry's copy first, so the append does not copy the array.
        entries[position].member = .tableArray([], location: location)
        elements.append(element)
        entries[position].member = .tableArray(elements, location: location)
    }

    /// The finished table.
    func build() -> TOMLTable {
        var table = TOMLTable()
        for entry in entries {
            let value: TOMLValue
            switch entry.member {
            case .value(let v):
                value = v
            case .table(let t):
                value = TOMLValue(.table(t.build()), at: t.location)
            case let .tableArray(elements, location):
                value = TOMLValue(.array(elements.map { TOMLValue(.table($0.build()), at: $0.location) }), at: location)
            }
            table.append(TOMLTable.Entry(key: entry.key, keyLocation: entry.keyLocation, value: value))
        }
        return table
    }
}
