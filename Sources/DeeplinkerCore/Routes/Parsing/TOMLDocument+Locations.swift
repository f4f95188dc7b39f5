/// Where a key path is written, for messages about values that are valid TOML but not a valid
/// route file (they name a path such as `routes[2].target`, not a value).
extension TOMLDocument {
    /// Where the key of `path` is written (for an array element, which has no key: where it
    /// starts); nil if the document has no such path.
    public func keyLocation(_ path: TOMLKeyPath) -> TextLocation? {
        lookUp(path).flatMap { $0.found ? ($0.keyLocation ?? $0.valueLocation) : nil }
    }

    /// Where the value of `path` starts (see `TOMLValue.location`); nil if there is no such path.
    public func valueLocation(_ path: TOMLKeyPath) -> TextLocation? {
        lookUp(path).flatMap { $0.found ? $0.valueLocation : nil }
    }

    /// The best location for a message about `path`: where its value starts (or, with
    /// `preferValue` false, where its key is written); for a path the document does not have
    /// (a missing key), the nearest ancestor's; for none, the start of the text.
    public func location(_ path: TOMLKeyPath, preferValue: Bool = true) -> TextLocation {
        guard let step = lookUp(path) else { return TextLocation(line: 1, column: 1) }
        return preferValue ? step.valueLocation : (step.keyLocation ?? step.valueLocation)
    }

    /// The deepest prefix of `path` in the document: its key and value locations, and whether it
    /// is the whole path. Nil if not even the first component is there.
    private func lookUp(_ path: TOMLKeyPath) -> (keyLocation: TextLocation?, valueLocation: TextLocation, found: Bool)? {
        var deepest: (keyLocation: TextLocation?, valueLocation: TextLocation, found: Bool)?
        var value = TOMLValue(.table(root), at: TextLocation(line: 1, column: 1))
        for component in path.components {
            switch (component, value.kind) {
            case let (.key(key), .table(table)):
                guard let entry = table.entry(key) else { return deepest.map { ($0.keyLocation, $0.valueLocation, false) } }
                deepest = (entry.keyLocation, entry.value.location, true)
                value = entry.value
            case let (.index(index), .array(elements)):
                guard elements.indices.contains(index) else { return deepest.map { ($0.keyLocation, $0.valueLocation, false) } }
                deepest = (nil, elements[index].location, true)
                value = elements[index]
            default:
                return deepest.map { ($0.keyLocation, $0.valueLocation, false) }
            }
        }
        return deepest
    }
}
