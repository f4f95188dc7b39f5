@testable import DeeplinkerDaemon
import Testing

/// When a call waits for its connection to be identified: only when its outcome depends on who
/// the caller is, or when a call of the same connection waits before it (calls keep their order).
@Suite struct CallerDirectoryTests {
    static let job: CallerDirectory.Job = { _, _ in }

    static func isProvisional(_ lookup: CallerDirectory.Lookup) -> Bool { if case .provisional = lookup { true } else { false } }
    static func isIdentify(_ lookup: CallerDirectory.Lookup) -> Bool { if case .identify = lookup { true } else { false } }
    static func isQueued(_ lookup: CallerDirectory.Lookup) -> Bool { if case .queued = lookup { true } else { false } }

    @Test func openCallsRunAtOnceAndTheConnectionIsIdentifiedWhenACallNeedsIt() {
        var d = CallerDirectory()
        let lookup1 = d.find(":1.7", callerIndependent: true, job: Self.job)
        #expect(Self.isProvisional(lookup1))
        let lookup2 = d.find(":1.7", callerIndependent: true, job: Self.job)
        #expect(Self.isProvisional(lookup2))
        // A call that needs the caller starts the identification and waits.
        let lookup3 = d.find(":1.7", job: Self.job)
        #expect(Self.isIdentify(lookup3))
        // An open call behind it waits too: calls keep their order.
        let lookup4 = d.find(":1.7", callerIndependent: true, job: Self.job)
        #expect(Self.isQueued(lookup4))
        let waited = d.resolved(":1.7", as: .host)
        #expect(waited.count == 2)
        guard case .known(.host) = d.find(":1.7", callerIndependent: true, job: Self.job) else {
            Issue.record("not known after resolved")
            return
        }
        // A first call that needs the caller identifies at once.
        let lookup5 = d.find(":1.8", job: Self.job)
        #expect(Self.isIdentify(lookup5))
        let other = d.find(":1.9", callerIndependent: true, job: Self.job)
        #expect(Self.isProvisional(other) && d.count == 3)
    }

    /// Invocations made before the identification count in the rate window that follows it; once
    /// a hundred were made, the next open call waits for the caller (a host is not limited).
    @Test func provisionalInvocationsCountInTheRateWindow() {
        var d = CallerDirectory()
        for i in 0..<RateWindow.limit {
            let lookup6 = d.find(":1.5", callerIndependent: true, job: Self.job)
            #expect(Self.isProvisional(lookup6))
            let admitted7 = d.admit(":1.5", CallerDirectory.provisional, at: Int64(i))
            #expect(admitted7)
        }
        let lookup8 = d.find(":1.5", callerIndependent: true, job: Self.job)
        #expect(Self.isIdentify(lookup8))
        _ = d.resolved(":1.5", as: .sandboxed(appID: "org.example.App"))
        let admitted9 = d.admit(":1.5", .sandboxed(appID: "org.example.App"), at: 200)
        #expect(!admitted9)
        let admitted10 = d.admit(":1.5", .sandboxed(appID: "org.example.App"), at: RateWindow.span)
        #expect(admitted10)
        let forgotten = d.forget(":1.5")
        #expect(forgotten.isEmpty && d.count == 0)
    }
}
