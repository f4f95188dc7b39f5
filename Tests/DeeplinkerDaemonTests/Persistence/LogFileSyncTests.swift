@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// The descriptor the sync thread `fdatasync`s is checked against the path before each sync: a
/// replaced log is reopened and counted, a missing one refuses to promise anything.
struct LogFileSyncTests {
    @Test("a replaced -wal file is noticed and reopened; a missing one fails naming it and the errno")
    func replacedAndMissingLog() throws {
        let directory = try TemporaryDirectory()
        let database = directory.appending("db.sqlite")
        #expect(FileManager.default.createFile(atPath: database + "-wal", contents: Data("one".utf8)))
        let captured = CapturedLog()
        let log = LogFileSync(databasePath: database, logger: captured.logger())
        try log.sync()
        try log.sync()
        #expect(log.replacedCount == 0, "the first open is no replacement")

        #expect(FileManager.default.createFile(atPath: database + "-new", contents: Data("two".utf8)))
        #expect(rename(database + "-new", database + "-wal") == 0)
        try log.sync()
        #expect(log.replacedCount == 1, "another inode at the path is a replaced log")
        #expect(captured.messages(at: .warning).contains { $0.contains("was replaced") }, "and said so")

        #expect(unlink(database + "-wal") == 0)
        do {
            try log.sync()
            Issue.record("a missing log must not be reported synced")
        } catch {
            #expect(error.description.contains(database + "-wal"), "\(error)")
            #expect(error.description.contains("ENOENT"), "\(error)")
        }
    }
}
