/// A 1-based line and column (in Unicode scalars) in a text.
public struct TextLocation: Hashable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
