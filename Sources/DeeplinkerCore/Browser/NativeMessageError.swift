/// What can be wrong with a native message. `isFatal` ones leave the stream out of step (the
/// host cannot tell where the next message starts), so the host ends; the others get an error
/// reply and the host reads on.
public enum NativeMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A length prefix over the incoming limit.
    case frameTooLarge(length: Int, limit: Int)
    /// The input ended inside a message.
    case truncatedFrame(received: Int, expected: Int)
    /// The payload is not JSON (or not UTF-8, or nested too deep).
    case invalidJSON(String)
    /// The JSON is not an object with the fields a message type needs.
    case invalidMessage(String)
    /// `type` names no message the host knows.
    case unknownType(String)
    /// A reply over the browser's 1 MiB limit (never sent).
    case replyTooLarge(size: Int, limit: Int)

    /// Whether the host must stop reading (the stream cannot be resynchronised).
    public var isFatal: Bool {
        switch self {
        case .frameTooLarge, .truncatedFrame: true
        case .invalidJSON, .invalidMessage, .unknownType, .replyTooLarge: false
        }
    }

    /// A short name for the `error` field of an error reply.
    public var code: String {
        switch self {
        case .frameTooLarge: "frame-too-large"
        case .truncatedFrame: "truncated-frame"
        case .invalidJSON: "invalid-json"
        case .invalidMessage: "invalid-message"
        case .unknownType: "unknown-type"
        case .replyTooLarge: "reply-too-large"
        }
    }

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let limit):
            "a message announces \(length) bytes, over the limit of \(limit)"
        case .truncatedFrame(let received, let expected):
            "the input ended after \(received) of \(expected) bytes of a message"
        case .invalidJSON(let reason): "the message is not valid JSON: \(reason)"
        case .invalidMessage(let reason): "invalid message: \(reason)"
        case .unknownType(let type): "unknown message type \"\(type)\" (known: claims, open, approve, revoke)"
        case .replyTooLarge(let size, let limit): "the reply would be \(size) bytes, over the browser's limit of \(limit)"
        }
    }
}
