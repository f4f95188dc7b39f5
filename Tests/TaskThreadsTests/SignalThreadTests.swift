import Glibc
import Testing
import TaskThreads

/// Signals arrive as a stream read by a thread of its own, and their default action no longer
/// applies (SIGUSR1 would end the test process).
@Suite("SignalThread")
struct SignalThreadTests {
    @Test("a trapped signal is yielded, in order with the next")
    func yieldsSignals() async throws {
        let signals = try SignalThread.trap([SIGUSR1, SIGUSR2], name: "test-signals")
        var received = signals.makeAsyncIterator()
        kill(getpid(), SIGUSR1)
        #expect(await received.next() == SIGUSR1)
        kill(getpid(), SIGUSR2)
        kill(getpid(), SIGUSR1)
        #expect(await received.next() == SIGUSR2)
        #expect(await received.next() == SIGUSR1)
    }
}
