/// One declared parameter of a target: its type and whether it may be left out (`"int?"`).
public struct ParameterSpec: Sendable, Hashable, CustomStringConvertible {
    public var type: ParameterType
    public var optional: Bool

    public init(type: ParameterType, optional: Bool = false) {
        self.type = type
        self.optional = optional
    }

    /// Parses the schema notation of a route file: a type name with an optional trailing `?`.
    public init?(notation: String) {
        let optional = notation.hasSuffix("?")
        guard let type = ParameterType(rawValue: optional ? String(notation.dropLast()) : notation) else { return nil }
        self.init(type: type, optional: optional)
    }

    public var description: String { type.rawValue + (optional ? "?" : "") }
}
