@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// `LogFileSync.sync()` really reaches the disk: on a ``FaultyFileSystem`` in power-cut mode,
/// what was written before the sync survives a cut and what was written after it does not. A
/// sync that did nothing (or synced another file) would lose the first part too.
@Suite(
    "Faults: the write-ahead log's sync survives a power cut", .serialized,
    .safetySuite(if: FaultyFileSystem.isAvailable, FaultyFileSystem.unavailableReason))
struct WriteAheadLogPowerCutTests {
    @Test("bytes written before sync() survive a cut; bytes written after it are lost")
    func syncedBytesSurviveACut() async throws {
        let directory = try TemporaryDirectory()
        let fs = try await FaultyFileSystem.mount(in: directory, powerCut: true)
        defer { fs.unmount() }
        let (backing, mount) = (fs.backing, fs.mountPoint)
        let database = mount + "/db.sqlite"
        let synced = Data(repeating: 0x57, count: 10_000)  // more than two pages
        let unsynced = Data(repeating: 0x4C, count: 5_000)

        let writer = try #require(FileHandle(forWritingAtPath: try Self.create(database + "-wal")))
        try writer.write(contentsOf: synced)
        let log = LogFileSync(databasePath: database)
        try log.sync()
        try writer.write(contentsOf: unsynced)
        try writer.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: database + "-wal")) == synced + unsynced, "before the cut both are there")

        let cut = try await fs.cut()
        log.close()
        #expect(cut.files == 1, "only the bytes after the sync were still unsynced: \(cut)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database + "-wal")) == synced, "the synced bytes and nothing else survive")
        #expect(try Data(contentsOf: URL(fileURLWithPath: backing + "/db.sqlite-wal")) == synced, "on the backing disk too")
    }

    /// Creates an empty file (a create passes straight through, as on LazyFS) and returns its path.
    static func create(_ path: String) throws -> String {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return path
    }
}
