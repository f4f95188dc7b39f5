/// The bus's answer to `RequestName`.
public enum RequestNameReply: UInt32, Sendable {
    case primaryOwner = 1
    case inQueue = 2
    case exists = 3
    case alreadyOwner = 4
}
