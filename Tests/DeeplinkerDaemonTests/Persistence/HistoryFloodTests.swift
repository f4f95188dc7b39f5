import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

private typealias S = StoreSamples

/// History under a flood: the apps with the most history lose their oldest entries first, no app
/// is cut below its newest final invocations while another holds more, in batches, never an open one.
@Suite struct HistoryFloodTests {
    let flooder = "org.example.Flood"
    let quiet = "org.example.Quiet"

    @Test func planCutsTheBiggestAppDownToTheLevelOfTheNext() {
        #expect(HistoryRetention.trimPlan(finalCounts: ["a": 14_000, "b": 50], excess: 4_050) == ["a": 4_050])
        #expect(HistoryRetention.trimPlan(finalCounts: ["a": 1_000, "b": 1_500], excess: 500) == ["b": 500])
        #expect(HistoryRetention.trimPlan(finalCounts: ["a": 1_000, "b": 1_500], excess: 700) == ["a": 100, "b": 600])
        #expect(HistoryRetention.trimPlan(finalCounts: ["a": 10, "b": 10, "c": 3], excess: 0) == [:])
    }

    @Test func planSharesARemainderOneEachByCountThenAppID() {
        // Level 4 removes 12 of 13; the last one comes from the first app in order.
        #expect(HistoryRetention.trimPlan(finalCounts: ["b": 10, "a": 10, "c": 3], excess: 13) == ["a": 7, "b": 6])
        let plan = HistoryRetention.trimPlan(finalCounts: ["a": 9, "b": 8, "c": 2], excess: 12)
        // Level 3 removes 11; the twelfth comes from the biggest app, and the app under the level keeps all.
        #expect(plan.values.reduce(0, +) == 12)
        #expect(plan == ["a": 7, "b": 5])
    }

    @Test func planTakesEveryFinalOneWhenThereAreTooFew() {
        #expect(HistoryRetention.trimPlan(finalCounts: ["a": 3, "b": 2], excess: 9) == ["a": 3, "b": 2])
        #expect(HistoryRetention.trimPlan(finalCounts: [:], excess: 9) == [:])
    }

    /// The measured case: 14,000 invocations for one app once left another app 1 of its 50.
    @Test(arguments: StoreKind.allCases)
    func floodOfFourteenThousandLeavesAnotherAppsFifty(kind: StoreKind) async throws {
        let (store, directory) = try kind.make(historyLimit: 10_000)
        defer { _ = directory }
        try await store.write([.invocation(S.invocation("open", app: flooder, status: .pending, at: 0))])
        try await store.write((0..<50).map { .invocation(S.invocation("q\($0)", app: quiet, status: .delivered, at: Int64(1 + $0))) })
        for chunk in stride(from: 0, to: 14_000, by: 500) {
            try await store.write((chunk..<chunk + 500).map {
                .invocation(S.invocation("f\($0)", app: flooder, status: .delivered, at: Int64(1_000 + $0)))
            })
        }
        let all = try await store.history(appID: nil, limit: 0)
        #expect(all.count <= HistoryRetention.trimThreshold(limit: 10_000))
        #expect(all.count >= 10_000, "trimmed in batches down to the limit, not further")
        #expect(try await store.history(appID: quiet, limit: 0).map(\.id) == (0..<50).reversed().map { "q\($0)" })
        let flood = try await store.history(appID: flooder, limit: 0).map(\.id)
        #expect(flood.first == "f13999")
        #expect(flood.contains("open"), "a pending invocation is never trimmed")
        #expect(!flood.contains("f0"))
    }

    /// Once the flood is down to another app's size, both are trimmed to the same level, each
    /// keeping its newest.
    @Test(arguments: StoreKind.allCases)
    func appsAreTrimmedToACommonLevelKeepingTheirNewest(kind: StoreKind) async throws {
        let (store, directory) = try kind.make(historyLimit: 2_000)
        defer { _ = directory }
        try await store.write((0..<1_500).map { .invocation(S.invocation("q\($0)", app: quiet, status: .delivered, at: Int64($0))) })
        try await store.write((0..<1_200).map {
            .invocation(S.invocation("f\($0)", app: flooder, status: .expired, at: Int64(10_000 + $0)))
        })
        // 2,700 rows, 700 too many: the bigger app goes down to 1,200 first, then both to 1,000.
        let quietKept = try await store.history(appID: quiet, limit: 0).map(\.id)
        let floodKept = try await store.history(appID: flooder, limit: 0).map(\.id)
        #expect(quietKept == (500..<1_500).reversed().map { "q\($0)" })
        #expect(floodKept == (200..<1_200).reversed().map { "f\($0)" })
    }

    /// Small apps are never trimmed while a bigger one holds more, even below 1,000 in total.
    @Test(arguments: StoreKind.allCases)
    func smallAppsKeepEverythingWhileABigOneHoldsMore(kind: StoreKind) async throws {
        let (store, directory) = try kind.make(historyLimit: 100)
        defer { _ = directory }
        for (index, app) in ["a", "b", "c"].enumerated() {
            try await store.write((0..<20).map {
                .invocation(S.invocation("\(app)\($0)", app: "org.example.\(app)", status: .delivered, at: Int64(index * 100 + $0)))
            })
        }
        for index in 0..<60 {
            try await store.write([.invocation(S.invocation("f\(index)", app: flooder, status: .delivered, at: Int64(1_000 + index)))])
        }
        for app in ["a", "b", "c"] {
            #expect(try await store.history(appID: "org.example.\(app)", limit: 0).count == 20)
        }
        let flood = try await store.history(appID: flooder, limit: 0)
        #expect(flood.count < 60 && flood.first?.id == "f59")
    }
}
