/// A typed destination inside an app: a declared target and its canonicalised parameters.
public struct Route: Sendable, Hashable, Codable {
    public var target: String
    public var parameters: [String: String]
    public var source: Source

    public init(target: String, parameters: [String: String] = [:], source: Source) {
        self.target = target
        self.parameters = parameters
        self.source = source
    }
}
