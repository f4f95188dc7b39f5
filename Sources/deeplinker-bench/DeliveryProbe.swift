import DBusKit
import Synchronization
import TaskThreads

/// Records when the stand-in app received each delivery, keyed by the `deeplinker.url` of its
/// `platform_data`, and lets the measuring task wait for one.
final class DeliveryProbe: Sendable {
    /// When a delivery arrived, on Swift's clock and on CLOCK_MONOTONIC (the clock of Python's
    /// `time.monotonic_ns()`, which the browser driver reports in).
    struct Arrival: Sendable {
        var instant: ContinuousClock.Instant
        var monotonicNanoseconds: Int64
    }

    private struct Entry {
        var arrival: Arrival?
        var waiter: CheckedContinuation<Arrival, Never>?
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
        let now = Arrival(instant: .now, monotonicNanoseconds: Int64(E2EApp.monotonicNanoseconds()))
        received.wrappingAdd(1, ordering: .relaxed)
        let waiter = entries.withLock { entries -> CheckedContinuation<Arrival, Never>? in
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
        await arrived(url).instant
    }

    /// The same, on CLOCK_MONOTONIC in nanoseconds.
    func arrivalNanoseconds(of url: String) async -> Int64 {
        await arrived(url).monotonicNanoseconds
    }

    private func arrived(_ url: String) async -> Arrival {
        await withCheckedContinuation { continuation in
            let ready = entries.withLock { entries -> Arrival? in
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
