import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport

/// The two store implementations the shared behaviour suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case sqlite

    var description: String { rawValue }

    /// A fresh store (with the temp directory that must outlive it).
    func make(historyLimit: Int = 10_000) throws -> (store: any InvocationStore, directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        switch self {
        case .memory: return (MemoryInvocationStore(historyLimit: historyLimit), directory)
        case .sqlite: return (try SQLiteInvocationStore(directory: directory.appending("state"), historyLimit: historyLimit), directory)
        }
    }
}
