import DBusKit
import Dispatch
import Foundation
import Synchronization

/// Calls `onChange` (coalesced over `delay`) when a file in one of `directories` is created,
/// written, moved or removed, using inotify. Directories that do not exist are skipped.
final class DirectoryWatcher: Sendable {
    private let source: LockedValue<DispatchSourceRead?>

    init(
        directories: [String], delay: Duration = .milliseconds(200), onFailure: (String) -> Void,
        onChange: @escaping @Sendable () -> Void
    ) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else {
            onFailure("inotify is unavailable (\(String(cString: strerror(errno)))); route files reload on SIGHUP and Reload only")
            source = LockedValue(nil)
            return
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY)
        var watching = 0
        for directory in directories where inotify_add_watch(fd, directory, mask) >= 0 { watching += 1 }
        guard watching > 0 else {
            if !directories.isEmpty { onFailure("none of \(directories.joined(separator: ":")) can be watched; reload with SIGHUP or Reload") }
            close(fd)
            source = LockedValue(nil)
            return
        }
        let queue = DispatchQueue(label: "deeplinkerd.config-watch")
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        // Whether a reload is already scheduled (a burst of events reloads once).
        let scheduled = Atomic<Bool>(false)
        let milliseconds = Int(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(fd, &buffer, buffer.count) > 0 {}
            guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
            queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                scheduled.store(false, ordering: .releasing)
                onChange()
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = LockedValue(source)
    }

    func stop() {
        source.withLock { $0?.cancel() }
    }
}
