import DeeplinkerCore
import SQLite

extension SQLiteInvocationStore {
    /// Commits one batch in a single transaction (one fsync), synchronously where the committer runs it;
    /// history is trimmed in the same transaction. The batch is first written straight through; if
    /// any write fails, that transaction is rolled back and the batch is written again with each
    /// caller's changes in their own savepoint, so one failing write does not fail the others.
    static func commit(
        _ batch: [[StoreChange]],
        db: SQLiteDatabase,
        state: SQLiteWriteState,
        historyLimit: Int
    ) -> [Result<Void, any Error>] {
        do {
            // Savepoints cost two statements per caller; failures are rare, so try without first.
            return try db.transaction {
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
            return try db.transaction {
                var results: [Result<Void, any Error>] = []
                results.reserveCapacity(batch.count)
                for changes in batch {
                    do {
                        try db.savepoint {
                            for change in changes { try apply(change, db: db, state: state) }
                        }
                        results.append(.success(()))
                    } catch {
                        state.invocationCount = nil
                        results.append(.failure(error))
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

    /// Applies one change inside the current transaction.
    static func apply(_ change: StoreChange, db: SQLiteDatabase, state: SQLiteWriteState) throws(SQLiteError) {
        switch change {
        case .invocation(let invocation):
            try upsert(invocation, db: db, state: state)
        case .appState(let record):
            try db.run("""
                INSERT INTO app_state (app_id, state, owner, updated_at) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT(app_id) DO UPDATE SET state = excluded.state, owner = excluded.owner,
                    updated_at = excluded.updated_at
                """, [.text(record.appID), .text(record.state.rawValue), SQLiteValue(record.owner), .integer(record.updatedAt)])
        case .shortcuts(let appID, let types):
            try db.run("DELETE FROM shortcut WHERE app_id = ?1", [.text(appID)])
            for (position, type) in types.enumerated() {
                try db.run("INSERT INTO shortcut (app_id, position, type) VALUES (?1, ?2, ?3)", [.text(appID), SQLiteValue(position), .text(type)])
            }
        case .notificationPosted(let notification):
            try db.run(
                "INSERT OR REPLACE INTO notification (id, app_id, payload, posted_at) VALUES (?1, ?2, ?3, ?4)",
                [.integer(Int64(notification.id)), .text(notification.appID), .text(notification.payload), .integer(notification.postedAt)])
        case .notificationClosed(let id):
            try db.run("DELETE FROM notification WHERE id = ?1", [.integer(Int64(id))])
        case .domainCheck(let check):
            try db.run(
                """
                INSERT OR REPLACE INTO domain_check (app_id, domain, verdict, detail, checked_at, verified_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """,
                [
                    .text(check.appID), .text(check.domain), .text(check.verdict.rawValue), .text(check.detail),
                    .integer(check.checkedAt), .integer(check.verifiedAt),
                ])
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
    static func upsert(_ invocation: Invocation, db: SQLiteDatabase, state: SQLiteWriteState) throws(SQLiteError) {
        var applied = false
        // Revision 0 is an invocation's first version: it can only be new, so skip the UPDATE.
        if invocation.revision > 0 {
            applied = try InvocationRowBinding.run(db.statement(updateInvocationSQL), invocation) > 0
        }
        if !applied {
            applied = try InvocationRowBinding.run(db.statement(insertInvocationSQL), invocation) > 0
            if applied, let count = state.invocationCount { state.invocationCount = count + 1 }
        }
        if applied, invocation.status == .delivered, let route = invocation.route {
            try db.run("""
                INSERT INTO last_route (app_id, invocation_id, target, parameters, source) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT(app_id) DO UPDATE SET invocation_id = excluded.invocation_id,
                    target = excluded.target, parameters = excluded.parameters, source = excluded.source
                """, [
                    .text(invocation.appID), .text(invocation.id), .text(route.target), .text(encodeJSON(route.parameters)),
                    .text(route.source.rawValue),
                ])
        }
    }

    /// Once more than ``HistoryRetention/trimThreshold(limit:)`` invocations are kept, deletes
    /// final ones down to `limit`, the oldest of the apps with the most history first
    /// (``HistoryRetention/trimPlan(finalCounts:excess:)``); pending and delivering ones are never
    /// trimmed.
    static func trimHistory(db: SQLiteDatabase, state: SQLiteWriteState, limit: Int) throws(SQLiteError) {
        let count: Int
        if let known = state.invocationCount {
            count = known
        } else {
            count = Int(try db.integer("SELECT COUNT(*) FROM invocation") ?? 0)
        }
        state.invocationCount = count
        guard count > HistoryRetention.trimThreshold(limit: limit) else { return }
        var finalCounts: [String: Int] = [:]
        let counts = try db.statement("""
            SELECT app_id, COUNT(*) FROM invocation WHERE status NOT IN ('pending', 'delivering') GROUP BY app_id
            """)
        defer { counts.reset() }
        while try counts.step() { finalCounts[counts.text(0) ?? ""] = Int(counts.integer(1)) }
        counts.reset()
        var deleted = 0
        for (app, cut) in HistoryRetention.trimPlan(finalCounts: finalCounts, excess: count - limit) {
            deleted += try db.run("""
                DELETE FROM invocation WHERE seq IN (
                    SELECT seq FROM invocation WHERE app_id = ?1 AND status NOT IN ('pending', 'delivering')
                    ORDER BY received_at, seq LIMIT ?2)
                """, [.text(app), SQLiteValue(cut)])
        }
        state.invocationCount = count - deleted
    }
}
