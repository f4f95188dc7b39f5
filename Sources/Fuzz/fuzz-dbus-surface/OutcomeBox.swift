import DBusKit

/// The outcome of one call, handed from the client's loop thread to libFuzzer's (a semaphore orders the two).
final class OutcomeBox: @unchecked Sendable {
    var result: Result<DBusMessage, DBusError>?
}
