import DeeplinkerCore
@testable import DeeplinkerDaemon
import Testing

/// The delivery journal's record format: what is written reads back the same, and a record cut
/// short or changed on disk is never read as one.
@Suite struct JournalRecordTests {
    typealias S = StoreSamples

    /// An invocation with no route and no optional fields, beside the sample with every field set.
    static let bare = Invocation(
        id: "bare", appID: S.app, source: .shortcut, route: nil, status: .delivering, detail: "", receivedAt: -7,
        updatedAt: 0, attempts: 0, redelivery: false, platformData: [:], dedupeKey: nil, launchKind: nil, revision: 3)

    static let changes: [StoreChange] = [
        .invocation(S.invocation("full", status: .delivering, at: 1_764_000_000_000_000, revision: 2)),
        .invocation(bare),
        .appState(AppStateRecord(appID: S.app, state: .active, owner: ":1.42", updatedAt: 99)),
        .appState(AppStateRecord(appID: "org.example.Other", state: .notRunning, owner: nil, updatedAt: 100)),
    ]

    @Test("records read back exactly as written, in order")
    func roundTrip() throws {
        let first = try #require(JournalRecord(sequence: 1, changes: Self.changes).encoded())
        let second = try #require(JournalRecord(sequence: 2, changes: [Self.changes[1]]).encoded())
        let (records, valid) = JournalRecord.decodeAll(first + second)
        #expect(records == [JournalRecord(sequence: 1, changes: Self.changes), JournalRecord(sequence: 2, changes: [Self.changes[1]])])
        #expect(valid == first.count + second.count)
    }

    @Test("a record cut short ends the readable part; the records before it are kept", arguments: [1, 11, 12, 40])
    func tornTail(kept: Int) throws {
        let first = try #require(JournalRecord(sequence: 1, changes: [Self.changes[0]]).encoded())
        let second = try #require(JournalRecord(sequence: 2, changes: [Self.changes[1]]).encoded())
        let (records, valid) = JournalRecord.decodeAll(first + second.prefix(kept))
        #expect(records.map(\.sequence) == [1])
        #expect(valid == first.count)
    }

    @Test("a changed byte fails the checksum, wherever it is")
    func changedByte() throws {
        let bytes = try #require(JournalRecord(sequence: 5, changes: Self.changes).encoded())
        for index in stride(from: 4, to: bytes.count, by: 7) {
            var changed = bytes
            changed[index] ^= 0x20
            #expect(JournalRecord.decodeAll(changed).records.isEmpty, "byte \(index)")
        }
    }

    @Test("a batch with a change the journal does not carry has no record (it waits for its transaction)")
    func unsupportedChange() {
        #expect(JournalRecord(sequence: 1, changes: [Self.changes[0], .shortcuts(appID: S.app, types: ["compose"])]).encoded() == nil)
        #expect(JournalRecord(sequence: 1, changes: [.notificationClosed(id: 3)]).encoded() == nil)
    }
}
