import Logging
import DBusKit
import DeeplinkerTestSupport
import TaskThreads

/// A `LogHandler` that keeps every line, so tests can read what the daemon logged.
final class CapturedLog: Sendable {
    private let lines = LockedValue<[(level: Logger.Level, message: String)]>([])
    /// Every message, as it is logged, to wait for.
    let recorded = Recorder<String>()

    /// A logger writing here (every level).
    func logger(label: String = "deeplinkerd-test") -> Logger {
        Logger(label: label) { _ in Handler(log: self) }
    }

    /// The messages logged at `level`.
    func messages(at level: Logger.Level) -> [String] {
        lines.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    fileprivate func append(_ level: Logger.Level, _ message: String) {
        lines.withLock { $0.append((level, message)) }
        recorded.put(message)
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append(event.level, event.message.description)
        }
    }
}
