import DeeplinkerTestSupport
import Foundation
import Testing

/// The power-cut mode of ``FaultyFileSystem`` itself (`scripts/faulty-fs --power-cut`), which the
/// power-cut tests rely on: unsynced writes and truncations are seen through the mount but not on
/// the backing disk, a cut drops them, a sync keeps them, and the `-shm` index is written back.
@Suite(
    "Faults: the power-cut file system", .serialized,
    .safetySuite(if: FaultyFileSystem.isAvailable, FaultyFileSystem.unavailableReason))
struct PowerCutFileSystemTests {
    @Test("unsynced writes and truncations are visible, then dropped by a cut; synced ones stay; -shm is written back")
    func cutDropsOnlyUnsyncedData() async throws {
        let directory = try TemporaryDirectory()
        let fs = try await FaultyFileSystem.mount(in: directory, powerCut: true)
        defer { fs.unmount() }
        let (backing, mount) = (fs.backing, fs.mountPoint)
        // Through a FileHandle: Foundation's `Data(contentsOf:)` leaks its 4 KiB buffer when a file's
        // size changes under it (LeakSanitizer's report), which this file system's files do.
        func read(_ path: String) throws -> Data {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        }
        let synced = Data((0..<6_000).map { UInt8($0 % 251) })

        // A file synced once, then shortened and overwritten without a sync.
        #expect(FileManager.default.createFile(atPath: mount + "/kept", contents: nil))
        let kept = try #require(FileHandle(forUpdatingAtPath: mount + "/kept"))
        try kept.write(contentsOf: synced)
        try kept.synchronize()
        try kept.truncate(atOffset: 100)
        try kept.write(contentsOf: Data("after".utf8))
        try kept.close()
        #expect(try read(mount + "/kept") == synced.prefix(100) + Data("after".utf8), "the mount shows the unsynced state")
        #expect(try read(backing + "/kept") == synced, "the disk has only what was synced")

        // Never synced: a data file and SQLite's shared-memory index.
        for name in ["lost", "db-shm"] {
            #expect(FileManager.default.createFile(atPath: "\(mount)/\(name)", contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: "\(mount)/\(name)"))
            try handle.write(contentsOf: Data(name.utf8))
            try handle.close()
        }

        let cut = try await fs.cut()
        #expect(cut.files == 3, "\(cut)")
        #expect(try read(mount + "/kept") == synced, "a cut undoes the unsynced truncation and write")
        #expect(try read(mount + "/lost").isEmpty, "a file never synced keeps only its creation")
        #expect(try read(mount + "/db-shm") == Data("db-shm".utf8), "the index is written back, not dropped")
    }
}
