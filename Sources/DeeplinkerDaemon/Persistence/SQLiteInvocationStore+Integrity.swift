import Logging
import SQLite
import TaskThreads

extension SQLiteInvocationStore {
    /// Runs `PRAGMA quick_check` over the whole file on a thread of its own (`store-check`), on a
    /// read-only connection of its own, and logs what it finds: the daemon calls it after serving
    /// starts, when the last one stopped uncleanly. `completion` gets quick_check's lines (`["ok"]`
    /// for a sound file) or the error that stopped it.
    public func checkIntegrity(logger: Logger, completion: (@Sendable (Result<[String], StoreError>) -> Void)? = nil) {
        let path = path
        NamedThread.start(name: "store-check") {
            let result: Result<[String], StoreError>
            do {
                let db = try SQLiteDatabase(path: path, mode: .readOnly)
                defer { db.close() }
                result = .success(try db.statement("PRAGMA quick_check").rows { $0.text(0) ?? "" })
            } catch let error as SQLiteError {
                result = .failure(error.isCorruption ? .corrupt(path: path, reason: error.message) : .cannotOpen(path: path, reason: error.description))
            } catch {
                result = .failure(.cannotOpen(path: path, reason: "\(error)"))
            }
            switch result {
            case .success(let lines) where lines == ["ok"]:
                logger.info("\(path): checked after an unclean stop: ok")
            case .success(let lines):
                logger.error("\(path): checked after an unclean stop, quick_check found: \(lines.prefix(10).joined(separator: "; "))")
            case .failure(let error):
                logger.error("\(path): check after an unclean stop failed: \(error)")
            }
            completion?(result)
        }
    }
}
