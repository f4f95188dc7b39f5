import DeeplinkerCore
import GRDB
import TaskThreads

extension SQLiteInvocationStore {
    public func loadSnapshot(dedupeSince: Int64) async throws -> EngineSnapshot {
        try await read { db in
            let open = try Row.fetchAll(db, sql: "SELECT * FROM invocation WHERE status IN ('pending', 'delivering')")
            let recent = try Row.fetchAll(db, sql: """
                SELECT * FROM invocation
                WHERE received_at >= ? AND dedupe_key IS NOT NULL AND status <> 'rejected'
                """, arguments: [dedupeSince])
            var routes: [String: Route] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM last_route") {
                let appID: String = row["app_id"]
                let fail = StoreError.corrupt(path: "last route of \(appID)", reason: "unreadable route")
                guard let source = Source(rawValue: row["source"]) else { throw fail }
                routes[appID] = Route(
                    target: row["target"], parameters: try Self.decodeJSON(row["parameters"], orThrow: fail), source: source)
            }
            return EngineSnapshot(
                openInvocations: try open.map(Self.invocation(from:)),
                appStates: try Self.fetchAppStates(db),
                lastDeliveredRoutes: routes,
                recentInvocations: try recent.map(Self.invocation(from:))
            )
        }
    }

    public func history(appID: String?, limit: Int) async throws -> [Invocation] {
        try await read { db in
            let sqlLimit = limit > 0 ? limit : -1
            let rows: [Row]
            if let appID {
                rows = try Row.fetchAll(db, sql: """
                    SELECT * FROM invocation WHERE app_id = ? ORDER BY received_at DESC, seq DESC LIMIT ?
                    """, arguments: [appID, sqlLimit])
            } else {
                rows = try Row.fetchAll(db, sql: """
                    SELECT * FROM invocation ORDER BY received_at DESC, seq DESC LIMIT ?
                    """, arguments: [sqlLimit])
            }
            return try rows.map(Self.invocation(from:))
        }
    }

    /// Six columns through a cursor: no `Row` per invocation kept, no JSON decoded.
    public func historyEntries(appID: String?, limit: Int) async throws -> [HistoryEntry] {
        try await read { db in
            let columns = """
                SELECT id, app_id, CASE WHEN target IS NULL THEN source ELSE route_source END, target, status, received_at
                FROM invocation
                """
            let rows = if let appID {
                try Row.fetchCursor(db, sql: columns + " WHERE app_id = ? ORDER BY received_at DESC, seq DESC LIMIT ?",
                                    arguments: [appID, limit > 0 ? limit : -1])
            } else {
                try Row.fetchCursor(db, sql: columns + " ORDER BY received_at DESC, seq DESC LIMIT ?",
                                    arguments: [limit > 0 ? limit : -1])
            }
            var entries: [HistoryEntry] = []
            while let row = try rows.next() {
                let id: String = row[0]
                let fail = StoreError.corrupt(path: "invocation \(id)", reason: "unknown source or status")
                guard let source = Source(rawValue: row[2] ?? ""), let status = InvocationStatus(rawValue: row[4]) else { throw fail }
                entries.append(HistoryEntry(
                    id: id, appID: row[1], source: source, target: row[3] ?? "", status: status, receivedAt: row[5]))
            }
            return entries
        }
    }

    public func invocation(id: String) async throws -> Invocation? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM invocation WHERE id = ?", arguments: [id]).map(Self.invocation(from:))
        }
    }

    public func appStates() async throws -> [AppStateRecord] {
        try await read(Self.fetchAppStates)
    }

    public func shortcuts(appID: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT type FROM shortcut WHERE app_id = ? ORDER BY position", arguments: [appID])
        }
    }

    public func allShortcuts() async throws -> [String: [String]] {
        try await read { db in
            var result: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT app_id, type FROM shortcut ORDER BY app_id, position") {
                result[row["app_id"], default: []].append(row["type"])
            }
            return result
        }
    }

    public func domainChecks() async throws -> [DomainCheck] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM domain_check ORDER BY app_id, domain").compactMap { row in
                // A verdict this daemon does not know (written by a newer one) is left out.
                DomainVerdict(rawValue: row["verdict"]).map { verdict in
                    DomainCheck(
                        appID: row["app_id"], domain: row["domain"], verdict: verdict, detail: row["detail"],
                        checkedAt: row["checked_at"], verifiedAt: row["verified_at"])
                }
            }
        }
    }

    public func notifications() async throws -> [UInt32: PostedNotification] {
        try await read { db in
            var result: [UInt32: PostedNotification] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM notification") {
                let id = UInt32(truncatingIfNeeded: row["id"] as Int64)
                result[id] = PostedNotification(id: id, appID: row["app_id"], payload: row["payload"], postedAt: row["posted_at"])
            }
            return result
        }
    }

    /// All app states, sorted by app id.
    static func fetchAppStates(_ db: Database) throws -> [AppStateRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM app_state ORDER BY app_id").map { row in
            let appID: String = row["app_id"]
            guard let state = AppState(rawValue: row["state"]) else {
                throw StoreError.corrupt(path: "app state of \(appID)", reason: "unknown state")
            }
            return AppStateRecord(appID: appID, state: state, owner: row["owner"], updatedAt: row["updated_at"])
        }
    }

    /// A read, refused with ``StoreError/closed`` once closed. Until the first commit it runs on
    /// the writer (nothing else writes yet, so it sees one state): start-up's reads then open no
    /// reader connection on the way to the first reply. Afterwards it runs on a pool reader,
    /// beside the commits.
    ///
    /// It runs GRDB's blocking API on ``readThreads``: GRDB's async API runs on a `DispatchQueue`,
    /// whose first job starts libdispatch's worker pool, and with it a 1 Hz monitor for good
    /// (docs/architecture.md, "Threads"). Nor does a long read hold one of the global executor's
    /// threads.
    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard !committer.closed else { throw StoreError.closed }
        let pool = self.pool
        let onWriter = committer.batchCount == 0
        return try await withTaskExecutorPreference(Self.readThreads) {
            onWriter ? try pool.writeWithoutTransaction(body) : try pool.read(body)
        }
    }

    /// The threads reads block on; started with the first read.
    static let readThreads = JobThreads(threads: 2, name: "store-reads")
}
