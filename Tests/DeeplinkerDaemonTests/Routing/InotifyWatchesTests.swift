import DeeplinkerTestSupport
import Foundation
import Testing
@testable import DeeplinkerDaemon

/// Which inotify events change the route files, on a real temporary directory: the events are
/// read right after each file operation (inotify queues them within the system call), with no
/// thread and no coalescing, so a spurious change shows up deterministically.
struct InotifyWatchesTests {
    /// Watches for `targets` (relative to a temporary root), their notices and descriptor.
    final class Subject {
        let root: String
        let fd: Int32
        let watches: InotifyWatches
        let notices = Locked<[String]>([])

        init(root: String, targets: [String]) throws {
            self.root = root
            fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            try #require(fd >= 0)
            let notices = self.notices
            watches = InotifyWatches(inotify: fd, targets: targets.map { root + "/" + $0 }) { line in notices.mutate { $0.append(line) } }
            watches.update()
        }

        deinit { close(fd) }

        /// Whether the events queued since the last call change the route files.
        func changed() -> Bool { watches.handleQueued() }

        /// How many inotify watches the descriptor holds (from `/proc/self/fdinfo`).
        var watchCount: Int {
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8)) ?? ""
            return info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count
        }

        func mkdir(_ path: String) throws {
            try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        }

        func write(_ path: String) throws {
            try TestFiles.write("home = {}\n", to: root + "/" + path)
        }

        func remove(_ path: String) throws {
            try FileManager.default.removeItem(atPath: root + "/" + path)
        }
    }

    @Test func aFolderTwoLevelsDownIsAwaitedThenWatched() throws {
        try TemporaryDirectory.with { dir in
            let s = try Subject(root: dir.path, targets: ["cfg/deeplinker/apps"])
            #expect(s.notices.value == ["watching \(dir.path) for cfg/deeplinker/apps to appear"])
            #expect(s.watchCount == 1)
            try s.mkdir("cfg")
            #expect(!s.changed())
            try s.mkdir("cfg/deeplinker")
            #expect(!s.changed())
            try s.mkdir("cfg/deeplinker/apps")
            #expect(s.changed())
            #expect(s.notices.value.last == "watching \(dir.path)/cfg/deeplinker/apps, which appeared")
            // The parents' watches are gone: only the folder's is left.
            #expect(s.watchCount == 1)
            try s.write("cfg/deeplinker/apps/com.a.App.toml")
            #expect(s.changed())
        }
    }

    @Test func aFolderAndItsFileMadeAtOnceCountAsAChange() throws {
        try TemporaryDirectory.with { dir in
            let s = try Subject(root: dir.path, targets: ["cfg/deeplinker/apps"])
            // All before the events are read: the file's own event is never seen.
            try s.write("cfg/deeplinker/apps/com.a.App.toml")
            #expect(s.changed())
            #expect(s.watchCount == 1)
            try s.write("cfg/deeplinker/apps/com.b.App.toml")
            #expect(s.changed())
        }
    }

    @Test func unrelatedEventsInAParentAreNoChange() throws {
        try TemporaryDirectory.with { dir in
            try FileManager.default.createDirectory(atPath: dir.path + "/cfg", withIntermediateDirectories: true)
            let s = try Subject(root: dir.path, targets: ["cfg/deeplinker/apps"])
            try s.write("cfg/unrelated.conf")
            try s.write("cfg/unrelated.conf")
            try s.mkdir("cfg/other/apps")
            try s.remove("cfg/unrelated.conf")
            try s.mkdir("elsewhere")
            // The next name, but a file: nothing to watch in.
            try s.write("cfg/deeplinker")
            #expect(!s.changed())
            #expect(s.watchCount == 1)
            try s.remove("cfg/deeplinker")
            try s.mkdir("cfg/deeplinker/apps")
            #expect(s.changed())
            try s.write("cfg/unrelated.conf")
            try s.write("cfg/deeplinker/unrelated.conf")
            #expect(!s.changed())
        }
    }

    @Test func aFolderRemovedIsAwaitedAgain() throws {
        try TemporaryDirectory.with { dir in
            try FileManager.default.createDirectory(atPath: dir.path + "/apps", withIntermediateDirectories: true)
            let s = try Subject(root: dir.path, targets: ["apps"])
            #expect(s.notices.value.isEmpty)
            try s.remove("apps")
            #expect(s.changed())
            #expect(s.notices.value == ["watching \(dir.path) for apps to appear"])
            #expect(s.watchCount == 1)
            try s.write("unrelated.conf")
            #expect(!s.changed())
            try s.write("apps/com.a.App.toml")
            #expect(s.changed())
            try s.write("apps/com.a.App.toml")
            #expect(s.changed())
        }
    }

    @Test func aRemovedTreeFallsBackToTheNearestExistingParent() throws {
        try TemporaryDirectory.with { dir in
            try TestFiles.write("home = {}\n", to: dir.path + "/cfg/deeplinker/apps/com.a.App.toml")
            let s = try Subject(root: dir.path, targets: ["cfg/deeplinker/apps"])
            // Removed bottom up: each parent goes while the one below it is awaited there.
            try s.remove("cfg")
            #expect(s.changed())
            #expect(s.watchCount == 1)
            try s.write("unrelated.conf")
            #expect(!s.changed())
            try s.write("cfg/deeplinker/apps/com.a.App.toml")
            #expect(s.changed())
        }
    }

    @Test func aFolderMovedAwayAndBackIsAChangeEachTime() throws {
        try TemporaryDirectory.with { dir in
            try TestFiles.write("home = {}\n", to: dir.path + "/apps/com.a.App.toml")
            let s = try Subject(root: dir.path, targets: ["apps"])
            try FileManager.default.moveItem(atPath: dir.path + "/apps", toPath: dir.path + "/apps.old")
            #expect(s.changed())
            // Its old inode is no longer watched.
            try s.write("apps.old/com.b.App.toml")
            #expect(!s.changed())
            try FileManager.default.moveItem(atPath: dir.path + "/apps.old", toPath: dir.path + "/apps")
            #expect(s.changed())
            try s.write("apps/com.c.App.toml")
            #expect(s.changed())
        }
    }
}
