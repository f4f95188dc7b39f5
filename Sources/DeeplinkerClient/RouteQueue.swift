import DBusKit
import TaskThreads

/// A rendezvous between deliveries and the consumer of a `RouteSequence`: `push` returns (and so
/// the delivery is acknowledged) only when the consumer has taken the route.
final class RouteQueue: Sendable {
    private struct Waiting {
        var route: IncomingRoute
        var taken: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var routes: [Waiting] = []
        var consumers: [HandOff<IncomingRoute?, Never>] = []
        var finished = false
    }

    private let state = LockedValue(State())

    /// Hands `route` over; returns once a consumer took it, throws when the sequence finished.
    func push(_ route: IncomingRoute) async throws {
        try await withCheckedThrowingContinuation { (taken: CheckedContinuation<Void, any Error>) in
            enum Outcome { case handed(HandOff<IncomingRoute?, Never>), queued, refused }
            let outcome: Outcome = state.withLock { s in
                if s.finished { return .refused }
                if !s.consumers.isEmpty { return .handed(s.consumers.removeFirst()) }
                s.routes.append(Waiting(route: route, taken: taken))
                return .queued
            }
            switch outcome {
            case .handed(let consumer):
                consumer.resume(returning: route)
                taken.resume()
            case .refused:
                taken.resume(throwing: RouteRejection(message: "the app stopped taking routes"))
            case .queued:
                break
            }
        }
    }

    /// The next route, or nil after `finish()`.
    func next() async -> IncomingRoute? {
        await withHandOff { (consumer: HandOff<IncomingRoute?, Never>) in
            let waiting: Waiting?? = state.withLock { s in
                if !s.routes.isEmpty { return .some(s.routes.removeFirst()) }
                if s.finished { return .some(nil) }
                s.consumers.append(consumer)
                return nil
            }
            switch waiting {
            case .some(.some(let w)):
                w.taken.resume()
                consumer.resume(returning: w.route)
            case .some(.none):
                consumer.resume(returning: nil)
            case .none:
                break
            }
        }
    }

    /// Ends the sequence: consumers get nil, routes not taken are refused (they stay pending).
    func finish() {
        let (routes, consumers) = state.withLock { s in
            s.finished = true
            defer { s.routes = []; s.consumers = [] }
            return (s.routes, s.consumers)
        }
        for w in routes { w.taken.resume(throwing: RouteRejection(message: "the app stopped taking routes")) }
        for c in consumers { c.resume(returning: nil) }
    }
}
