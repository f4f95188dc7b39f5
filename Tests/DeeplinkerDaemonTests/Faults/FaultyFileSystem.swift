import DeeplinkerTestSupport
import Foundation

/// A fault a ``FaultyFileSystem`` answers every change with, until told otherwise.
enum FileSystemFault: String, Sendable, CustomStringConvertible {
    /// Nothing fails: every call is passed through.
    case none = "ok"
    /// `EIO`, as a disk whose writes fail.
    case ioError = "eio"
    /// `EROFS`, as a file system that went read-only.
    case readOnly = "erofs"
    /// `EIO` from `fsync`/`fdatasync` only: writes still land in the page cache, as on a disk whose
    /// flushes fail.
    case syncIOError = "eio-sync"

    /// What a `StorageFailed` message must say for this fault (the errno's text and name).
    var expectedMessage: String {
        switch self {
        case .none: ""
        case .ioError, .syncIOError: "Input/output error (EIO)"
        case .readOnly: "Read-only file system (EROFS)"
        }
    }

    var description: String {
        switch self {
        case .none: "no fault"
        case .ioError: "I/O error"
        case .readOnly: "read-only file system"
        case .syncIOError: "I/O error on sync"
        }
    }
}

/// A real file system mounted on a directory for one test, that fails or loses writes on demand: a
/// FUSE pass-through (`scripts/faulty-fs`, python3-fusepy, one process; `scripts/soak --power-cuts`
/// runs the same file) to a backing directory.
///
/// Faults: while one is set, the kernel returns its errno to every `write`, `fsync`, `ftruncate`,
/// create, rename, unlink, chmod made below the mount, so SQLite and the store see the kernel's own
/// failing system calls (no mock, nothing inside the daemon changed). Reads and opens still work,
/// as on a failing disk whose pages are cached. SQLite's `-shm` file is left alone.
///
/// Power cuts (`powerCut: true`, the LazyFS model): every write stays in the server's own cache
/// until its file is `fsync`ed or `fdatasync`ed; ``cut()`` drops everything not yet synced, which
/// is what losing power does to the page cache. Creates, renames and unlinks go straight through.
///
/// Why not the kernel's own read-only remount: `mount -o remount,ro` is refused (`EBUSY`) while a
/// file on the file system is open for writing, which the daemon's database always is; and a
/// file system the kernel forces read-only after an error (ext4 `errors=remount-ro`) cannot be
/// made writable again until those files are closed. Why not the block layer: this kernel has no
/// device-mapper (`dm-error`, `dm-flakey`) and no fault injection.
///
/// Needs root (mounting), `/dev/fuse` and python3-fusepy (`scripts/setup` installs it); tests
/// check ``isAvailable`` and are skipped with ``unavailableReason`` otherwise.
final class FaultyFileSystem: Sendable {
    let mountPoint: String
    let backing: String
    private let server: TestProcess

    /// The FUSE server (see its usage text for the commands on stdin).
    static let script = TestFiles.repository("scripts/faulty-fs")

    static let unavailableReason =
        "FUSE is unavailable here (needs /dev/fuse, python3-fusepy and the right to mount)"

    /// Whether FUSE can be mounted here: mounting is allowed (the tmpfs probe), `/dev/fuse` opens,
    /// and python3 has fusepy.
    static let isAvailable: Bool = {
        guard TmpfsMount.isAvailable, access("/dev/fuse", R_OK | W_OK) == 0 else { return false }
        return (try? TestProcess.runBlocking("/usr/bin/python3", ["-c", "import fusepy"])) == 0
    }()

    /// Mounts the pass-through of `backing` (which must exist) on `mountPoint` (which must exist)
    /// and returns once the kernel has it mounted. With `powerCut`, unsynced writes stay in the
    /// server's cache until ``cut()`` drops them.
    init(backing: String, mountPoint: String, powerCut: Bool = false) async throws {
        self.backing = backing
        self.mountPoint = mountPoint
        server = try TestProcess(
            executable: "/usr/bin/python3", arguments: [Self.script] + (powerCut ? ["--power-cut"] : []) + [backing, mountPoint],
            environment: ProcessInfo.processInfo.environment)
        do {
            try await server.waitForLine(containing: "mounted")
        } catch {
            server.stop()
            throw FaultyFileSystemError(message: "the FUSE server did not mount: \(server.stderr)")
        }
    }

    /// Makes `directory/backing` and `directory/<mountPoint>` and mounts the pass-through of the
    /// first on the second (the set-up every FUSE test shares).
    static func mount(in directory: TemporaryDirectory, on mountPoint: String = "mount", powerCut: Bool = false) async throws -> FaultyFileSystem {
        let backing = directory.appending("backing")
        let mount = directory.appending(mountPoint)
        for path in [backing, mount] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        return try await FaultyFileSystem(backing: backing, mountPoint: mount, powerCut: powerCut)
    }

    /// Sets the fault every later change gets (``FileSystemFault/none`` to heal); returns once the
    /// server has it, so the next system call sees it.
    func inject(_ fault: FileSystemFault) async throws {
        server.send(fault.rawValue)
        try await server.waitForLine(containing: "fault \(fault.rawValue)")
    }

    /// What a cut dropped: how many files had unsynced data and how many bytes (whole pages).
    struct Cut: Sendable, CustomStringConvertible {
        let files: Int
        let bytes: Int
        var description: String { "\(files) files, \(bytes) bytes unsynced" }
    }

    /// The power cut: drops every write not yet synced (the `-shm` index is written back instead,
    /// see `scripts/faulty-fs`); returns once done. Stop the writers first (SIGKILL and reap), so
    /// that nothing lands after the cut.
    @discardableResult
    func cut() async throws -> Cut {
        server.send("cut")
        let line = try await server.waitForLine(containing: "cut ")
        func number(_ key: String) -> Int {
            line.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? -1
        }
        return Cut(files: number("files"), bytes: number("bytes"))
    }

    /// Detaches the mount and ends the server. Stop whatever has files open below it first (the
    /// daemon): their later calls would fail with `ENOTCONN`.
    func unmount() {
        _ = try? TestProcess.runBlocking("/bin/umount", ["-l", mountPoint])
        server.closeInput()
        server.stop()
    }

    struct FaultyFileSystemError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
