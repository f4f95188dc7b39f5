/// A value handed from a task to the thread blocked waiting for it (a semaphore orders the two).
final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
