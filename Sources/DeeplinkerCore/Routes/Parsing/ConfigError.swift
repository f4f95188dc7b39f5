/// A problem in a route file, located at a line and column (1-based) and naming the offending value.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, the form compilers use, so editors can jump to it.
    public var description: String { "\(file):\(line):\(column): \(message)" }

    /// The D-Bus-facing form (`org.deeplinker.Error.InvalidConfig`).
    public var deeplinkerError: DeeplinkerError { .invalidConfig(description) }
}
