/// A parsed TOML 1.0 document: its root table, every key and value with where it is written.
/// Parsing is pure Swift (`TOMLParser`), so it neither leaks nor aborts on bad input.
public struct TOMLDocument: Sendable, Hashable {
    public var root: TOMLTable

    public init(root: TOMLTable) { self.root = root }

    /// Parses `text`; the first problem is thrown with its line and column.
    public init(parsing text: String) throws(TOMLSyntaxError) {
        root = try TOMLParser.parse(text)
    }
}
