import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// Where commits run: through the scheduler the store is given (``InvocationStore/scheduleCommits(on:)``),
/// which in the daemon is its bus thread's idle hook.
@Suite struct CommitSchedulingTests {
    typealias S = StoreSamples

    @Test("commits run where the scheduler puts them: one transaction for every write enqueued before the drain runs")
    func commitsRunThroughTheScheduler() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        let drains = Locked<[@Sendable () -> Void]>([])
        store.scheduleCommits { drain in drains.mutate { $0.append(drain) } }
        let commits = (0..<5).map { store.enqueue([.invocation(S.invocation("i\($0)", at: Int64($0)))]) }
        #expect(drains.value.count == 1, "one drain for all the writes enqueued while it waits")
        #expect(commits.allSatisfy { !$0.isResolved }, "nothing is committed before the scheduler runs the drain")
        drains.value[0]()
        #expect(commits.allSatisfy { $0.isResolved }, "the drain commits where it runs, before it returns")
        #expect(store.transactionCount == 1)

        let next = store.enqueue([.invocation(S.invocation("i5", at: 5))])
        #expect(drains.value.count == 2, "a write after the drain finished schedules the next one")
        drains.value[1]()
        try await next.wait()
        #expect(try await store.history(appID: nil, limit: 0).count == 6)
        drains.set([])  // they hold the committer, which holds the scheduler, which holds them
        try await store.close()
    }

    @Test("the daemon commits on its bus thread, after the job that enqueued the write")
    func daemonCommitsOnItsBusThread() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [TestRouteFiles.recipes: try TestRouteFiles.shipped(TestRouteFiles.recipes)], startDaemon: false) { f in
            let daemon = try await f.startDaemon()
            let (store, executor) = (daemon.store, daemon.connection.executor)
            let (pendingAfterEnqueue, resolvedOnLoop) = await withCheckedContinuation { (done: CheckedContinuation<(Bool, Bool), Never>) in
                executor.execute {
                    let commit = store.enqueue([.invocation(S.invocation("on-the-loop", app: TestRouteFiles.recipes))])
                    let pending = !commit.isResolved
                    commit.whenResolved { _ in done.resume(returning: (pending, executor.isCurrent)) }
                }
            }
            #expect(pendingAfterEnqueue, "the commit waits until the loop has run what is queued")
            #expect(resolvedOnLoop, "and is made on the loop thread, with no thread to wake")
            #expect(try await store.invocation(id: "on-the-loop") != nil)
        }
    }
}
