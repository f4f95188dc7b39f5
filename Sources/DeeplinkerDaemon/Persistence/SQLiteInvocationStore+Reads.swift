import DeeplinkerCore
import SQLite
import TaskThreads

extension SQLiteInvocationStore {
    /// Open invocations through the partial index `invocation_open`, app states, last routes: no
    /// read grows with the history kept.
    public func loadSnapshot() async throws -> EngineSnapshot {
        try await read { db in
            let open = try db.statement(Self.selectOpenInvocations).rows([], Self.invocation(from:))
            return EngineSnapshot(openInvocations: open, appStates: try Self.fetchAppStates(db), lastDeliveredRoutes: try Self.fetchLastRoutes(db))
        }
    }

    /// On the writer connection, on the calling thread (the bus thread, which also commits): it
    /// sees every commit, and waits for none. Through `invocation_by_dedupe_key` (schema v6).
    public func firstInvocation(appID: String, dedupeKey: String, since: Int64) throws -> Invocation? {
        guard !committer.closed else { throw StoreError.closed }
        return try writer.withLock { db in
            try Self.mapped(path) {
                try db.statement(Self.selectFirstInvocation).first([.text(appID), .text(dedupeKey), .integer(since)], Self.invocation(from:))
            }
        }
    }

    /// The open invocations: a scan of the partial index `invocation_open`, not of the history.
    static let selectOpenInvocations = selectInvocation + " WHERE status IN ('pending', 'delivering')"

    /// The de-duplication look-up: a search of `invocation_by_dedupe_key`, already in order.
    static let selectFirstInvocation = selectInvocation + """
         WHERE app_id = ?1 AND dedupe_key = ?2 AND received_at >= ?3 AND status <> 'rejected'
         ORDER BY received_at, seq LIMIT 1
        """

    public func history(appID: String?, limit: Int) async throws -> [Invocation] {
        try await read { db in
            let sqlLimit = Int64(limit > 0 ? limit : -1)
            if let appID {
                return try db.statement(Self.selectInvocation + " WHERE app_id = ?1 ORDER BY received_at DESC, seq DESC LIMIT ?2")
                    .rows([.text(appID), .integer(sqlLimit)], Self.invocation(from:))
            }
            return try db.statement(Self.selectInvocation + " ORDER BY received_at DESC, seq DESC LIMIT ?1")
                .rows([.integer(sqlLimit)], Self.invocation(from:))
        }
    }

    /// Six columns, no JSON decoded.
    public func historyEntries(appID: String?, limit: Int) async throws -> [HistoryEntry] {
        try await read { db in
            let columns = """
                SELECT id, app_id, CASE WHEN target IS NULL THEN source ELSE route_source END, target, status, received_at
                FROM invocation
                """
            let sqlLimit = Int64(limit > 0 ? limit : -1)
            let statement: SQLiteStatement
            let values: [SQLiteValue]
            if let appID {
                statement = try db.statement(columns + " WHERE app_id = ?1 ORDER BY received_at DESC, seq DESC LIMIT ?2")
                values = [.text(appID), .integer(sqlLimit)]
            } else {
                statement = try db.statement(columns + " ORDER BY received_at DESC, seq DESC LIMIT ?1")
                values = [.integer(sqlLimit)]
            }
            return try statement.rows(values) { row in
                let id = row.text(0) ?? ""
                guard let source = Source(rawValue: row.text(2) ?? ""), let status = InvocationStatus(rawValue: row.text(4) ?? "") else {
                    throw StoreError.corrupt(path: "invocation \(id)", reason: "unknown source or status")
                }
                return HistoryEntry(
                    id: id, appID: row.text(1) ?? "", source: source, target: row.text(3) ?? "", status: status,
                    receivedAt: row.integer(5))
            }
        }
    }

    public func invocation(id: String) async throws -> Invocation? {
        try await read { db in
            try db.statement(Self.selectInvocation + " WHERE id = ?1").first([.text(id)], Self.invocation(from:))
        }
    }

    public func appStates() async throws -> [AppStateRecord] {
        try await read(Self.fetchAppStates)
    }

    public func shortcuts(appID: String) async throws -> [String] {
        try await read { db in
            try db.statement("SELECT type FROM shortcut WHERE app_id = ?1 ORDER BY position").rows([.text(appID)]) { $0.text(0) ?? "" }
        }
    }

    public func allShortcuts() async throws -> [String: [String]] {
        try await read { db in
            var result: [String: [String]] = [:]
            let rows = try db.statement("SELECT app_id, type FROM shortcut ORDER BY app_id, position").rows { ($0.text(0) ?? "", $0.text(1) ?? "") }
            for (app, type) in rows { result[app, default: []].append(type) }
            return result
        }
    }

    public func domainChecks() async throws -> [DomainCheck] {
        try await read { db in
            let rows = try db.statement("""
                SELECT app_id, domain, verdict, detail, checked_at, verified_at FROM domain_check ORDER BY app_id, domain
                """).rows { row in
                // A verdict this daemon does not know (written by a newer one) is left out.
                DomainVerdict(rawValue: row.text(2) ?? "").map { verdict in
                    DomainCheck(
                        appID: row.text(0) ?? "", domain: row.text(1) ?? "", verdict: verdict, detail: row.text(3) ?? "",
                        checkedAt: row.integer(4), verifiedAt: row.integer(5))
                }
            }
            return rows.compactMap { $0 }
        }
    }

    public func notifications() async throws -> [UInt32: PostedNotification] {
        try await read { db in
            var result: [UInt32: PostedNotification] = [:]
            let rows = try db.statement("SELECT id, app_id, payload, posted_at FROM notification").rows { row in
                PostedNotification(
                    id: UInt32(truncatingIfNeeded: row.integer(0)), appID: row.text(1) ?? "", payload: row.text(2) ?? "",
                    postedAt: row.integer(3))
            }
            for notification in rows { result[notification.id] = notification }
            return result
        }
    }

    /// All app states, sorted by app id.
    static func fetchAppStates(_ db: SQLiteDatabase) throws -> [AppStateRecord] {
        try db.statement("SELECT app_id, state, owner, updated_at FROM app_state ORDER BY app_id").rows { row in
            let appID = row.text(0) ?? ""
            guard let state = AppState(rawValue: row.text(1) ?? "") else {
                throw StoreError.corrupt(path: "app state of \(appID)", reason: "unknown state")
            }
            return AppStateRecord(appID: appID, state: state, owner: row.text(2), updatedAt: row.integer(3))
        }
    }

    /// Each app's last delivered route.
    static func fetchLastRoutes(_ db: SQLiteDatabase) throws -> [String: Route] {
        var routes: [String: Route] = [:]
        let rows = try db.statement("SELECT app_id, target, parameters, source FROM last_route").rows { row in
            (row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "", row.text(3) ?? "")
        }
        for (appID, target, parameters, source) in rows {
            let fail = StoreError.corrupt(path: "last route of \(appID)", reason: "unreadable route")
            guard let source = Source(rawValue: source) else { throw fail }
            routes[appID] = Route(target: target, parameters: try decodeJSON(parameters, orThrow: fail), source: source)
        }
        return routes
    }

    /// A read, refused with ``StoreError/closed`` once closed. Until the first commit it runs on
    /// the writer (nothing else writes yet, so it sees one state): start-up's reads then open no
    /// reader connection on the way to the first reply. Afterwards it runs on the reader
    /// connection, beside the commits (WAL: a reader never waits for the writer).
    ///
    /// It blocks on ``readThreads``, not on a thread of the global executor (a long read holds none
    /// of them).
    private func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws -> T) async throws -> T {
        guard !committer.closed else { throw StoreError.closed }
        return try await withTaskExecutorPreference(Self.readThreads) {
            try self.readNow(body)
        }
    }

    /// ``read(_:)``'s work, on the calling thread.
    func readNow<T: Sendable>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        guard !committer.closed else { throw StoreError.closed }
        if committer.batchCount == 0 {
            return try writer.withLock { db in try Self.mapped(path) { try body(db) } }
        }
        return try reader.withLock { reader in
            if reader == nil {
                do throws(SQLiteError) {
                    reader = try SQLiteDatabase(path: path, mode: .readWrite)
                } catch {
                    throw StoreError.cannotOpen(path: path, reason: error.description)
                }
            }
            let db = reader!
            return try Self.mapped(path) { try body(db) }
        }
    }

    /// `body`, with a SQLite error thrown as a ``StoreError`` naming `path`.
    static func mapped<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw error.isCorruption
                ? StoreError.corrupt(path: path, reason: error.message) : StoreError.cannotOpen(path: path, reason: error.description)
        }
    }

    /// The threads reads block on; started with the first read.
    static let readThreads = JobThreads(threads: 2, name: "store-reads")
}
