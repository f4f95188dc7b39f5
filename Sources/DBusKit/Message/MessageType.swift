/// The four kinds of D-Bus message.
public enum MessageType: Int32, Sendable {
    case invalid = 0
    case methodCall = 1
    case methodReturn = 2
    case error = 3
    case signal = 4
}
