import DBusKit
import DeeplinkerTestSupport
import Testing

/// ``DBusLoopExecutor/executeWhenIdle(_:)``: work the loop thread does once per wake-up, after
/// everything queued, before it waits for the bus again.
@Suite struct LoopExecutorTests {
    @Test("an idle job runs on the loop thread after the jobs queued before and with it, never inline")
    func idleJobRunsAfterQueuedJobs() async throws {
        let bus = try BusFixture()
        let connection = try bus.connect()
        defer { connection.close() }
        let executor = connection.executor
        let order = Locked<[String]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            executor.execute {
                executor.executeWhenIdle {
                    order.mutate { $0.append(executor.isCurrent ? "idle, on the loop" : "idle, elsewhere") }
                    done.resume()
                }
                order.mutate { $0.append("after scheduling") }
                executor.execute { order.mutate { $0.append("job queued after it") } }
            }
        }
        #expect(order.value == ["after scheduling", "job queued after it", "idle, on the loop"])
    }

    @Test("idle jobs run in the order they were scheduled, and one scheduled by an idle job runs before the loop sleeps")
    func idleJobsKeepTheirOrder() async throws {
        let bus = try BusFixture()
        let connection = try bus.connect()
        defer { connection.close() }
        let executor = connection.executor
        let order = Locked<[Int]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<3 {
                executor.executeWhenIdle {
                    order.mutate { $0.append(index) }
                    if index == 2 {
                        executor.executeWhenIdle {
                            order.mutate { $0.append(3) }
                            done.resume()
                        }
                    }
                }
            }
        }
        #expect(order.value == [0, 1, 2, 3])
    }

    @Test("an idle job scheduled after the connection closed still runs, where the loop's jobs run then")
    func idleJobAfterClose() async throws {
        let bus = try BusFixture()
        let connection = try bus.connect()
        let executor = connection.executor
        connection.close()
        let onLoopContext = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            executor.executeWhenIdle { done.resume(returning: executor.isCurrent) }
        }
        #expect(onLoopContext)
    }
}
