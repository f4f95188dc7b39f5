import Dispatch
import Foundation

/// Calls `onChange` (coalesced over `delay`) when a file in one of `directories` is created,
/// written, moved or removed, using inotify. Directories that do not exist are skipped.
final class DirectoryWatcher: @unchecked Sendable {  // `source` is set once in init; cancel is thread-safe
    private let source: DispatchSourceRead?

    /// Whether a reload is already scheduled; touched only on the watcher's serial queue.
    private final class Pending: @unchecked Sendable {
        var scheduled = false
    }

    init(
        directories: [String], delay: Duration = .milliseconds(200), onFailure: (String) -> Void,
        onChange: @escaping @Sendable () -> Void
    ) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else {
            onFailure("inotify is unavailable (\(String(cString: strerror(errno)))); route files reload on SIGHUP and Reload only")
            source = nil
            return
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY)
        var watching = 0
        for directory in directories where inotify_add_watch(fd, directory, mask) >= 0 { watching += 1 }
        guard watching > 0 else {
            if !directories.isEmpty { onFailure("none of \(directories.joined(separator: ":")) can be watched; reload with SIGHUP or Reload") }
            close(fd)
            source = nil
            return
        }
        let queue = DispatchQueue(label: "deeplinkerd.config-watch")
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let pending = Pending()
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(fd, &buffer, buffer.count) > 0 {}
            guard !pending.scheduled else { return }
            pending.scheduled = true
            queue.asyncAfter(deadline: .now() + .milliseconds(Int(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000))) {
                pending.scheduled = false
                onChange()
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = source
    }

    func stop() {
        source?.cancel()
    }
}
