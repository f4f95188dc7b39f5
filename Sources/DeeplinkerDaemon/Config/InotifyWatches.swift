import FoundationEssentials
import Glibc

/// The inotify watches of the route folders and of the ancestors a missing one is awaited in,
/// kept in line with a ``WatchPlan``; tells which events are a change of route files.
///
/// Used by one thread at a time: set up by ``DirectoryWatcher``'s init, then only by its thread.
final class InotifyWatches: @unchecked Sendable {
    /// What a route folder is watched for: its files, and itself going away.
    static let targetMask = UInt32(
        IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF)
    /// What an ancestor is watched for: a child appearing, and itself going away.
    static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
    /// Events about the files of a route folder.
    static let fileEvents = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY)

    private let fd: Int32
    private let targets: [String]
    private let notice: @Sendable (String) -> Void
    private var plan = WatchPlan(targets: [], exists: { _ in false })
    /// Watch descriptor → the watched paths (two when a path reaches an inode another one does).
    private var paths: [Int32: Set<String>] = [:]
    /// Each route folder watched directly → its watch descriptor.
    private var direct: [String: Int32] = [:]
    /// Room for a few events (each at most a header and NAME_MAX + 1 bytes of name).
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Watches on the inotify descriptor `fd` for `targets` (absolute paths); `notice` hears
    /// when a folder is awaited in a parent and when it appears. Call ``update()`` to start, then ``handleQueued()`` when the descriptor is readable.
    init(inotify fd: Int32, targets: [String], notice: @escaping @Sendable (String) -> Void) {
        self.fd = fd
        self.targets = targets.map(WatchPlan.normalized)
        self.notice = notice
    }

    /// Reads and handles every event queued on the (non-blocking) descriptor; whether one of
    /// them changes the route files.
    func handleQueued() -> Bool {
        var changed = false
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return changed }
            for event in Self.events(in: buffer[..<count]) where handle(wd: event.wd, mask: event.mask, name: event.name) {
                changed = true
            }
        }
    }

    /// Handles one event; whether it changes the route files.
    private func handle(wd: Int32, mask: UInt32, name: String) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            update()
            return true
        }
        // A watch this removed itself ends with IN_IGNORED too: unknown by then.
        guard let watched = paths[wd] else { return false }
        var changed = false
        var moved = mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
        if mask & UInt32(IN_IGNORED) != 0 {
            paths[wd] = nil
            direct = direct.filter { $0.value != wd }
            changed = watched.contains(where: plan.isTarget)
        }
        for path in watched {
            if plan.isTarget(path), mask & Self.fileEvents != 0 { changed = true }
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, plan.leadsToward(name, in: path) { moved = true }
        }
        if moved, update() { changed = true }
        return changed
    }

    /// Brings the watches in line with the file system; whether a route folder is watched that
    /// was not (it appeared: its files are new) or is no longer (its files are gone).
    @discardableResult
    func update() -> Bool {
        // Folders that exist but cannot be watched (no permission, no watches left): awaited.
        var refused = Set<String>()
        var next = WatchPlan(targets: targets) { !refused.contains($0) && Self.isDirectory($0) }
        var added: [Int32: Set<String>] = [:]
        // A folder may appear or vanish between the plan and its watch: plan again until a plan
        // holds after its watches are in place (or give up, leaving what is watched).
        for attempt in 1...8 {
            added = [:]
            var vanished = false
            for (path, watch) in next.watches {
                let mask = (watch.isTarget ? Self.targetMask : 0) | (watch.awaiting.isEmpty ? 0 : Self.ancestorMask)
                // Added to what the inode has: a path reaching an inode another one watches.
                let wd = inotify_add_watch(fd, path, mask | UInt32(IN_ONLYDIR | IN_MASK_ADD))
                if wd >= 0 {
                    added[wd, default: []].insert(path)
                } else if errno == ENOENT || errno == ENOTDIR {
                    vanished = true
                } else {
                    refused.insert(path)
                }
            }
            let again = WatchPlan(targets: targets) { !refused.contains($0) && Self.isDirectory($0) }
            if !vanished && again == next || attempt == 8 { break }
            next = again
        }
        for wd in paths.keys where added[wd] == nil { inotify_rm_watch(fd, wd) }
        let before = (plan: plan, direct: direct)
        plan = next
        paths = added
        direct = [:]
        for (wd, watched) in added {
            for path in watched where next.isTarget(path) { direct[path] = wd }
        }
        for (target, parent) in next.missing.sorted(by: { $0.key < $1.key }) where before.plan.missing[target] == nil {
            notice("watching \(parent) for \(target.dropFirst(parent == "/" ? 1 : parent.count + 1)) to appear")
        }
        for target in direct.keys.sorted() where before.plan.missing[target] != nil {
            notice("watching \(target), which appeared")
        }
        return direct != before.direct
    }

    /// The `struct inotify_event`s in what one `read` returned.
    private static func events(in bytes: ArraySlice<UInt8>) -> [(wd: Int32, mask: UInt32, name: String)] {
        bytes.withUnsafeBytes { raw in
            var events: [(wd: Int32, mask: UInt32, name: String)] = []
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= raw.count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let name = raw[(offset + header)..<min(raw.count, offset + header + length)].prefix { $0 != 0 }
                events.append((wd, mask, String(decoding: name, as: UTF8.self)))
                offset += header + length
            }
            return events
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
