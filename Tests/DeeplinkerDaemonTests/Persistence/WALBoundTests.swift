import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// The writer never checkpoints (`wal_autocheckpoint = 0`); the sync thread does, after its sync,
/// and holds commits past ``WALGauge/holdFrames`` until it has: the `-wal` file stays under
/// ``WALGauge/boundBytes`` however long the writes go on (docs/architecture.md).
@Suite struct WALBoundTests {
    typealias S = StoreSamples

    @Test("the -wal file stays under its bound through 100,000 invocations written by many callers at once")
    func logStaysBounded() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path, historyLimit: 2_000)
        let walPath = store.path + "-wal"
        var largest: Int64 = 0
        let rounds = 500
        let perRound = 200
        for round in 0..<rounds {
            // 200 callers' writes queued together, as the bus thread queues them between drains.
            var last: PendingCommit?
            for index in 0..<perRound {
                let n = round * perRound + index
                last = store.enqueue([.invocation(S.invocation("i\(n)", status: .delivered, at: Int64(n)))])
            }
            try await last?.wait()
            var info = stat()
            #expect(stat(walPath, &info) == 0)
            largest = max(largest, Int64(info.st_size))
        }
        #expect(store.checkpointer.runs > 0, "the sync thread checkpointed")
        #expect(store.checkpointer.complete > 0, "and some checkpoints covered the whole log, so it started over")
        #expect(largest < Int64(WALGauge.boundBytes), "largest -wal: \(largest) bytes, bound \(WALGauge.boundBytes)")
        #expect(try await store.history(appID: nil, limit: 1).first?.id == "i\(rounds * perRound - 1)")
        try await store.close()
    }
}
