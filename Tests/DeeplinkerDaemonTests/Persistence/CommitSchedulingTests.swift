import DeeplinkerCore
import Dispatch
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// Where the commit pipeline runs: on the executor the store is given
/// (``InvocationStore/scheduleCommits(on:)``), in the daemon its bus thread: the drains (commits,
/// then their effects) and the sync thread's one report per group (the replies), in order.
@Suite struct CommitSchedulingTests {
    typealias S = StoreSamples

    @Test("commits run where the executor puts them: one transaction for every write enqueued before the drain runs; the replies in the sync's report, there too")
    func commitsRunThroughTheExecutor() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        let stepped = SteppedExecutor()
        store.scheduleCommits(on: stepped.executor)
        let commits = (0..<5).map { store.enqueue([.invocation(S.invocation("i\($0)", at: Int64($0)))]) }
        #expect(stepped.pending == [.drain], "one drain for all the writes enqueued while it waits")
        #expect(commits.allSatisfy { !$0.isWritten }, "nothing is committed before the executor runs the drain")
        try await stepped.runNext()
        #expect(commits.allSatisfy { $0.isWritten }, "the drain commits where it runs, before it returns")
        #expect(store.transactionCount == 1)
        #expect(try await stepped.runNext() == .job, "the sync thread reports back to the executor")
        #expect(commits.allSatisfy { $0.isResolved }, "durable where the report runs")
        for commit in commits { try await commit.wait() }

        let next = store.enqueue([.invocation(S.invocation("i5", at: 5))])
        #expect(stepped.pending == [.drain], "a write after the drain finished schedules the next one")
        try await stepped.runNext()
        try await stepped.runNext()
        try await next.wait()
        #expect(try await store.history(appID: nil, limit: 0).count == 6)
        try await stepped.finish(store)
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
                    let pending = !commit.isWritten
                    commit.whenWritten { _ in done.resume(returning: (pending, executor.isCurrent)) }
                }
            }
            #expect(pendingAfterEnqueue, "the commit waits until the loop has run what is queued")
            #expect(resolvedOnLoop, "and is written on the loop thread, with no thread to wake")
            #expect(try await store.invocation(id: "on-the-loop") != nil)
        }
    }

    @Test("a commit is written when its drain returns (readers see it) and durable only once the log is synced")
    func writtenThenDurable() async throws {
        let directory = try TemporaryDirectory()
        let gate = HeldGate()
        defer { gate.open() }  // a failed expectation must not leave the sync thread held
        let store = try SQLiteInvocationStore(directory: directory.path, historyLimit: 10_000, beforeBatch: nil, beforeSync: gate.pass)
        let stepped = SteppedExecutor()
        store.scheduleCommits(on: stepped.executor)
        gate.close()
        let commit = store.enqueue([.invocation(S.invocation("written", at: 1))])
        try await stepped.runNext()
        #expect(commit.isWritten, "committed where the drain ran")
        #expect(try await store.invocation(id: "written") != nil, "a reader sees the written row")
        #expect(try await gate.held.first { _ in true } == 1, "the sync thread holds the log's sync of it")
        #expect(!commit.isResolved && stepped.pending.isEmpty, "not durable, so not answered, while the sync is held")
        gate.open()
        try await stepped.runNext()
        try await commit.wait()
        #expect(store.syncCount == 1)
        try await stepped.finish(store)
        try await store.close()
    }

    @Test("the sync of a commit starts before its written callbacks run: the disk works while the effects go out")
    func syncStartsBeforeTheEffects() async throws {
        let directory = try TemporaryDirectory()
        let syncStarted = DispatchSemaphore(value: 0)
        let store = try SQLiteInvocationStore(
            directory: directory.path, historyLimit: 10_000, beforeBatch: nil, beforeSync: { _ in syncStarted.signal() })
        let stepped = SteppedExecutor()
        store.scheduleCommits(on: stepped.executor)
        let commit = store.enqueue([.invocation(S.invocation("effects", at: 1))])
        let sawTheSync = Locked(false)
        let order = Locked<[String]>([])
        // Runs inside the drain, on this thread: the sync thread has the commit already, or the
        // wait (a guard against a hang, not part of the expectation) runs out.
        commit.whenWritten { _ in
            sawTheSync.set(syncStarted.wait(timeout: .now() + 10) == .success)
            order.mutate { $0.append("effects") }
        }
        commit.whenResolved { _ in order.mutate { $0.append("reply") } }
        try await stepped.runNext()
        #expect(sawTheSync.value, "the sync had started when the effects ran")
        #expect(order.value == ["effects"], "a sync that ended meanwhile waits for the executor: the reply after the effects")
        try await stepped.runNext()
        try await commit.wait()
        #expect(order.value == ["effects", "reply"])
        try await stepped.finish(store)
        try await store.close()
    }

    @Test("commits written while a sync runs are made durable together by the next one")
    func oneSyncForCommitsWrittenMeanwhile() async throws {
        let directory = try TemporaryDirectory()
        let gate = HeldGate()
        defer { gate.open() }  // a failed expectation must not leave the sync thread held
        let groups = Locked<[Int]>([])
        let store = try SQLiteInvocationStore(directory: directory.path, historyLimit: 10_000, beforeBatch: nil) { size in
            groups.mutate { $0.append(size) }
            gate.pass(size)
        }
        let stepped = SteppedExecutor()
        store.scheduleCommits(on: stepped.executor)
        gate.close()
        let first = store.enqueue([.invocation(S.invocation("first", at: 1))])
        try await stepped.runNext()
        _ = try await gate.held.first { _ in true }
        // Three more transactions, each drained on its own, while the first sync is held.
        var later: [PendingCommit] = []
        for n in 2...4 {
            later.append(store.enqueue([.invocation(S.invocation("later\(n)", at: Int64(n)))]))
            try await stepped.runNext()
        }
        #expect(store.transactionCount == 4)
        #expect(later.allSatisfy { $0.isWritten && !$0.isResolved })
        gate.open()
        #expect(try await stepped.runNext() == .job)
        #expect(first.isResolved && !later.contains { $0.isResolved })
        #expect(try await stepped.runNext() == .job, "one report for the group of three")
        #expect(later.allSatisfy { $0.isResolved })
        #expect(groups.value == [1, 3], "one sync for the first, one for the three written during it")
        #expect(store.syncCount == 2)
        try await stepped.finish(store)
        try await store.close()
    }
}
