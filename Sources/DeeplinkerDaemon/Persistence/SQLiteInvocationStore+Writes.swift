import DeeplinkerCore
import GRDB

extension SQLiteInvocationStore {
    /// Commits one batch in a single transaction (one fsync), synchronously where the committer runs it;
    /// history is trimmed in the same transaction. The batch is first written straight through; if
    /// any write fails, that transaction is rolled back and the batch is written again with each
    /// caller's changes in their own savepoint, so one failing write does not fail the others.
    static func commit(
        _ batch: [[StoreChange]],
        pool: DatabasePool,
        state: SQLiteWriteState,
        historyLimit: Int
    ) -> [Result<Void, any Error>] {
        do {
            // Savepoints cost two statements per caller; failures are rare, so try without first.
            return try write(pool) { db in
                for changes in batch {
                    for change in changes { try apply(change, db: db, state: state) }
                }
                try trimHistory(db: db, state: state, limit: historyLimit)
                return Array(repeating: .success(()), count: batch.count)
            }
        } catch {
            state.invocationCount = nil
            guard batch.count > 1 else { return [.failure(error)] }
        }
        do {
            return try write(pool) { db in
                var results: [Result<Void, any Error>] = []
                results.reserveCapacity(batch.count)
                for changes in batch {
                    do {
                        try db.inSavepoint {
                            for change in changes { try apply(change, db: db, state: state) }
                            return .commit
                        }
                        results.append(.success(()))
                    } catch {
                        state.invocationCount = nil
                        results.append(.failure(SystemErrorContext.adding(to: error, db: db)))
                    }
                }
                try trimHistory(db: db, state: state, limit: historyLimit)
                return results
            }
        } catch {
            state.invocationCount = nil
            return Array(repeating: .failure(error), count: batch.count)
        }
    }

    /// `pool.write`, with the commit inside the closure so that a failure (a write or fsync refused
    /// by the file system happens mostly at COMMIT) still has its connection at hand to ask SQLite
    /// for the errno behind it. Rolled back on any error, as `pool.write` does. `BEGIN IMMEDIATE` and
    /// `COMMIT` are cached statements: GRDB's `inTransaction` prepares `BEGIN` anew every time.
    static func write<T>(_ pool: DatabasePool, _ updates: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            do {
                try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
                do {
                    let value = try updates(db)
                    try db.cachedStatement(sql: "COMMIT").execute()
                    return value
                } catch {
                    if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK").execute() }
                    throw error
                }
            } catch {
                throw SystemErrorContext.adding(to: error, db: db)
            }
        }
    }

    /// Applies one change inside the current transaction.
    static func apply(_ change: StoreChange, db: Database, state: SQLiteWriteState) throws {
        switch change {
        case .invocation(let invocation):
            try upsert(invocation, db: db, state: state)
        case .appState(let record):
            try db.cachedStatement(sql: """
                INSERT INTO app_state (app_id, state, owner, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(app_id) DO UPDATE SET state = excluded.state, owner = excluded.owner,
                    updated_at = excluded.updated_at
                """).execute(arguments: [record.appID, record.state.rawValue, record.owner, record.updatedAt])
        case .shortcuts(let appID, let types):
            try db.execute(sql: "DELETE FROM shortcut WHERE app_id = ?", arguments: [appID])
            for (position, type) in types.enumerated() {
                try db.cachedStatement(sql: "INSERT INTO shortcut (app_id, position, type) VALUES (?, ?, ?)")
                    .execute(arguments: [appID, position, type])
            }
        case .notificationPosted(let notification):
            try db.execute(
                sql: "INSERT OR REPLACE INTO notification (id, app_id, payload, posted_at) VALUES (?, ?, ?, ?)",
                arguments: [Int64(notification.id), notification.appID, notification.payload, notification.postedAt])
        case .notificationClosed(let id):
            try db.execute(sql: "DELETE FROM notification WHERE id = ?", arguments: [Int64(id)])
        case .domainCheck(let check):
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO domain_check (app_id, domain, verdict, detail, checked_at, verified_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [check.appID, check.domain, check.verdict.rawValue, check.detail, check.checkedAt, check.verifiedAt])
        }
    }

    /// The upsert's UPDATE: the row's values as `?1`…`?16`, applied unless the stored revision is newer.
    static let updateInvocationSQL = """
        UPDATE invocation SET app_id = ?2, source = ?3, status = ?4, detail = ?5, received_at = ?6,
            updated_at = ?7, target = ?8, route_source = ?9, parameters = ?10, launch_kind = ?11,
            dedupe_key = ?12, platform_data = ?13, attempts = ?14, redelivery = ?15, revision = ?16
        WHERE id = ?1 AND revision <= ?16
        """

    /// The upsert's INSERT of a new row (an existing id is left alone).
    static let insertInvocationSQL = """
        INSERT OR IGNORE INTO invocation (\(invocationColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
        """

    /// Updates the row if the stored revision is not newer, else inserts it if new; a stale version
    /// changes nothing. A delivered route also becomes the app's last route.
    static func upsert(_ invocation: Invocation, db: Database, state: SQLiteWriteState) throws {
        var applied = false
        // Revision 0 is an invocation's first version: it can only be new, so skip the UPDATE.
        if invocation.revision > 0 {
            applied = try InvocationRowBinding.run(db.cachedStatement(sql: updateInvocationSQL), invocation, db: db) > 0
        }
        if !applied {
            applied = try InvocationRowBinding.run(db.cachedStatement(sql: insertInvocationSQL), invocation, db: db) > 0
            if applied, let count = state.invocationCount { state.invocationCount = count + 1 }
        }
        if applied, invocation.status == .delivered, let route = invocation.route {
            try db.cachedStatement(sql: """
                INSERT INTO last_route (app_id, invocation_id, target, parameters, source) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(app_id) DO UPDATE SET invocation_id = excluded.invocation_id,
                    target = excluded.target, parameters = excluded.parameters, source = excluded.source
                """).execute(arguments: [
                    invocation.appID, invocation.id, route.target, encodeJSON(route.parameters), route.source.rawValue,
                ])
        }
    }

    /// Once more than ``HistoryRetention/trimThreshold(limit:)`` invocations are kept, deletes
    /// final ones down to `limit`, the oldest of the apps with the most history first
    /// (``HistoryRetention/trimPlan(finalCounts:excess:)``); pending and delivering ones are never
    /// trimmed.
    static func trimHistory(db: Database, state: SQLiteWriteState, limit: Int) throws {
        let count: Int
        if let known = state.invocationCount {
            count = known
        } else {
            count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM invocation") ?? 0
        }
        state.invocationCount = count
        guard count > HistoryRetention.trimThreshold(limit: limit) else { return }
        let rows = try Row.fetchAll(db, sql: """
            SELECT app_id, COUNT(*) FROM invocation WHERE status NOT IN ('pending', 'delivering') GROUP BY app_id
            """)
        let finalCounts = Dictionary(uniqueKeysWithValues: rows.map { (row: Row) in (row[0] as String, row[1] as Int) })
        var deleted = 0
        for (app, cut) in HistoryRetention.trimPlan(finalCounts: finalCounts, excess: count - limit) {
            try db.cachedStatement(sql: """
                DELETE FROM invocation WHERE seq IN (
                    SELECT seq FROM invocation WHERE app_id = ? AND status NOT IN ('pending', 'delivering')
                    ORDER BY received_at, seq LIMIT ?)
                """).execute(arguments: [app, cut])
            deleted += db.changesCount
        }
        state.invocationCount = count - deleted
    }
}
