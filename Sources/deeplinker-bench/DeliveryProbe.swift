import DBusKit
import Synchronization
import TaskThreads

/// Records when the stand-in app received each delivery, keyed by the `deeplinker.url` of its
/// `platform_data`, and lets the measuring task wait for one.
final class DeliveryProbe: Sendable {
    private struct Entry {
        var arrival: ContinuousClock.Instant?
        var waiter: CheckedContinuation<ContinuousClock.Instant, Never>?
    }

    private let entries = LockedValue<[String: Entry]>([:])
    private let received = Atomic<Int>(0)

    /// Deliveries received in total (expected or not).
    var count: Int { received.load(ordering: .relaxed) }

    /// Announces a URL whose delivery will be awaited; call before sending the invocation.
    func expect(_ url: String) {
        entries.withLock { $0[url] = Entry() }
    }

    /// Called by the app's handler (any thread) when `ActivateAction` arrives.
    func arrived(_ url: String) {
        let now = ContinuousClock.now
        received.wrappingAdd(1, ordering: .relaxed)
        let waiter = entries.withLock { entries -> CheckedContinuation<ContinuousClock.Instant, Never>? in
            guard var entry = entries[url] else { return nil }
            if let waiter = entry.waiter {
                entries[url] = nil
                return waiter
            }
            entry.arrival = now
            entries[url] = entry
            return nil
        }
        waiter?.resume(returning: now)
    }

    /// Waits for the delivery of an expected URL and returns when it arrived.
    func arrival(of url: String) async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            let ready = entries.withLock { entries -> ContinuousClock.Instant? in
                if let arrival = entries[url]?.arrival {
                    entries[url] = nil
                    return arrival
                }
                entries[url, default: Entry()].waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
