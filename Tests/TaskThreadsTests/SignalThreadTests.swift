import Glibc
import Testing
import TaskThreads

/// Signals arrive as a stream read by a thread of its own, and their default action no longer
/// applies (SIGUSR1 would end the test process).
@Suite("SignalThread")
struct SignalThreadTests {
    // One at a time: two different signals pending together are delivered lowest number first
    // (and ThreadSanitizer defers them), whatever order they were sent in.
    @Test("each trapped signal is yielded, again and again")
    func yieldsSignals() async throws {
        let signals = try SignalThread.trap([SIGUSR1, SIGUSR2], name: "test-signals")
        var received = signals.makeAsyncIterator()
        for signal in [SIGUSR1, SIGUSR2, SIGUSR1] {
            kill(getpid(), signal)
            #expect(await received.next() == signal)
        }
    }
}
