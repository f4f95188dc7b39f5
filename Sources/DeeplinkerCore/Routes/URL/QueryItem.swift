/// A decoded query item; `+` is kept as `+` and a bare `key` has the value `""`.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
