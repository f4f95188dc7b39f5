/// Why focus-watch stops: no backend can be used, or the display it followed went away.
public struct FocusWatchError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
