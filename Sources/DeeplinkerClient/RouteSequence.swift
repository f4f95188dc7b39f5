/// The routes delivered to a `DeeplinkerApp`, in arrival order. A route is acknowledged to the
/// daemon when the iterator returns it; a redelivered invocation id is never returned twice.
public struct RouteSequence: AsyncSequence, Sendable {
    public typealias Element = IncomingRoute
    let queue: RouteQueue

    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: RouteQueue

        public mutating func next() async -> IncomingRoute? {
            await queue.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }

    /// Ends the sequence; routes not yet taken stay pending in the daemon.
    public func finish() { queue.finish() }
}
