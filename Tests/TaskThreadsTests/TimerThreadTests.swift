import Glibc
import Testing
import TaskThreads

/// Sleeps on the timer thread: they end at their deadline, in deadline order, and at once on
/// cancellation, leaving nothing behind.
@Suite("TimerThread")
struct TimerThreadTests {
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    @Test("a sleep lasts at least its duration")
    func lastsItsDuration() async throws {
        let timers = TimerThread(name: "test-timers")
        let start = Self.monotonicNanoseconds()
        try await timers.sleep(for: .milliseconds(30))
        #expect(Self.monotonicNanoseconds() - start >= 30_000_000)
        #expect(timers.waiting == 0)
    }

    @Test("sleeps end in the order of their deadlines, not of their start")
    func deadlineOrder() async throws {
        let timers = TimerThread(name: "test-order")
        let ended = LockedValue<[Int]>([])
        await withThrowingTaskGroup(of: Void.self) { group in
            for (index, milliseconds) in [60, 20, 40].enumerated() {
                group.addTask {
                    try await timers.sleep(for: .milliseconds(milliseconds))
                    ended.withLock { $0.append(index) }
                }
            }
        }
        #expect(ended.withLock { $0 } == [1, 2, 0])
    }

    /// An hour, and a duration past what the clock can count (which sleeps until cancelled).
    @Test("cancelling a long sleep ends it at once with CancellationError; shorter sleeps behind it still end",
          .timeLimit(.minutes(1)), arguments: [Duration.seconds(3600), .seconds(Int64.max)])
    func cancellation(length: Duration) async throws {
        let timers = TimerThread(name: "test-cancel")
        let sleeping = Task { try await timers.sleep(for: length) }
        while timers.waiting == 0 { await Task.yield() }
        try await timers.sleep(for: .milliseconds(5))
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        #expect(timers.waiting == 0)
    }

    @Test("a task cancelled before it sleeps does not sleep")
    func cancelledBefore() async throws {
        let timers = TimerThread(name: "test-before")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await timers.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(timers.waiting == 0)
    }

    @Test("a sleep of zero or less returns at once")
    func zero() async throws {
        let timers = TimerThread(name: "test-zero")
        try await timers.sleep(for: .zero)
        try await timers.sleep(for: .milliseconds(-5))
        #expect(timers.waiting == 0)
    }
}
