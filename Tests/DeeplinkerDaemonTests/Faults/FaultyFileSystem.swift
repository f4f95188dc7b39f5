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

/// A real file system mounted on a directory for one test, that fails on demand: a FUSE
/// pass-through (python3-fusepy, one process) to a backing directory. While a fault is set, the
/// kernel returns its errno to every `write`, `fsync`, `ftruncate`, create, rename, unlink, chmod
/// made below the mount, so SQLite and the store see the kernel's own failing system calls (no
/// mock, nothing inside the daemon changed). Reads and opens still work, as on a failing disk whose
/// pages are cached. SQLite's `-shm` file (its shared-memory index, mapped into memory and never
/// synced) is left alone.
///
/// Why not the kernel's own read-only remount: `mount -o remount,ro` is refused (`EBUSY`) while a
/// file on the file system is open for writing, which the daemon's database always is; and a
/// file system the kernel forces read-only after an error (ext4 `errors=remount-ro`) cannot be
/// made writable again until those files are closed. Why not the block layer: this kernel has no
/// device-mapper (`dm-error`, `dm-flakey`) and no fault injection.
///
/// Needs root (mounting), `/dev/fuse` and python3-fusepy; tests check ``isAvailable`` and are
/// skipped with ``unavailableReason`` otherwise.
final class FaultyFileSystem: Sendable {
    let mountPoint: String
    let backing: String
    private let server: TestProcess

    static let unavailableReason =
        "FUSE is unavailable here (needs /dev/fuse, python3-fusepy and the right to mount)"

    /// Whether FUSE can be mounted here: mounting is allowed (the tmpfs probe), `/dev/fuse` opens,
    /// and python3 has fusepy.
    static let isAvailable: Bool = {
        guard TmpfsMount.isAvailable, access("/dev/fuse", R_OK | W_OK) == 0 else { return false }
        return (try? TestProcess.runBlocking("/usr/bin/python3", ["-c", "import fusepy"])) == 0
    }()

    /// Mounts the pass-through of `backing` (which must exist) on `mountPoint` (which must exist)
    /// and returns once the kernel has it mounted.
    init(backing: String, mountPoint: String) async throws {
        self.backing = backing
        self.mountPoint = mountPoint
        server = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-c", Self.script, backing, mountPoint],
            environment: ProcessInfo.processInfo.environment)
        do {
            try await server.waitForLine(containing: "mounted")
        } catch {
            server.stop()
            throw FaultyFileSystemError(message: "the FUSE server did not mount: \(server.stderr)")
        }
    }

    /// Sets the fault every later change gets (``FileSystemFault/none`` to heal); returns once the
    /// server has it, so the next system call sees it.
    func inject(_ fault: FileSystemFault) async throws {
        server.send(fault.rawValue)
        try await server.waitForLine(containing: "fault \(fault.rawValue)")
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

    /// The FUSE server: argv backing mountpoint; stdin takes `ok`, `eio`, `erofs` or `eio-sync` (only syncs fail) and answers
    /// `fault <word>` once set; prints `mounted` when the kernel has mounted it.
    static let script = """
        import errno, os, sys, threading
        from fusepy import FUSE, FuseOSError, Operations

        backing, mountpoint = sys.argv[1], sys.argv[2]
        FAULTS = {"ok": 0, "eio": errno.EIO, "erofs": errno.EROFS, "eio-sync": errno.EIO}
        fault = [0]
        sync_only = [False]

        def check(path, sync=False):
            if fault[0] and not path.endswith("-shm") and (sync or not sync_only[0]):
                raise FuseOSError(fault[0])

        def control():
            for line in sys.stdin:
                word = line.strip()
                fault[0] = FAULTS[word]
                sync_only[0] = word.endswith("-sync")
                print("fault", word, flush=True)

        class PassThrough(Operations):
            def _p(self, path): return backing + path
            def init(self, path):
                threading.Thread(target=control, daemon=True).start()
                print("mounted", flush=True)
            def access(self, path, mode):
                if not os.access(self._p(path), mode): raise FuseOSError(errno.EACCES)
            def getattr(self, path, fh=None):
                st = os.lstat(self._p(path))
                return {k: getattr(st, k) for k in ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid")}
            def statfs(self, path):
                s = os.statvfs(self._p(path))
                return {k: getattr(s, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}
            def readdir(self, path, fh): return [".", ".."] + os.listdir(self._p(path))
            def open(self, path, flags): return os.open(self._p(path), flags)
            def read(self, path, size, offset, fh): return os.pread(fh, size, offset)
            def release(self, path, fh): os.close(fh)
            def flush(self, path, fh): return 0
            def utimens(self, path, times=None): os.utime(self._p(path), times)
            def create(self, path, mode, fi=None):
                check(path); return os.open(self._p(path), os.O_RDWR | os.O_CREAT, mode)
            def write(self, path, data, offset, fh):
                check(path); return os.pwrite(fh, data, offset)
            def fsync(self, path, datasync, fh):
                check(path, sync=True)
                if datasync: os.fdatasync(fh)
                else: os.fsync(fh)
            def truncate(self, path, length, fh=None):
                check(path)
                if fh is not None: os.ftruncate(fh, length)
                else: os.truncate(self._p(path), length)
            def chmod(self, path, mode): check(path); os.chmod(self._p(path), mode)
            def chown(self, path, uid, gid): check(path); os.chown(self._p(path), uid, gid)
            def mkdir(self, path, mode): check(path); os.mkdir(self._p(path), mode)
            def rmdir(self, path): check(path); os.rmdir(self._p(path))
            def unlink(self, path): check(path); os.unlink(self._p(path))
            def rename(self, old, new): check(old); os.rename(self._p(old), self._p(new))

        FUSE(PassThrough(), mountpoint, foreground=True, nothreads=False)
        """
}
