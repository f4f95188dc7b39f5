import SQLite

extension SQLiteInvocationStore {
    /// The schema version this daemon writes to `PRAGMA user_version`. A database with a higher one
    /// comes from a newer daemon and is set aside, not opened; a lower one is migrated. Version 1 is
    /// the first shipped schema, which left `user_version` at 0 (its `grdb_migrations` table, kept
    /// as it is, says `v1`).
    static let schemaVersion = 6

    /// The migrations, in order: `migrations[n - 1]` takes a database from version `n - 1` to `n`
    /// and ends by setting `user_version` to `n` (v1 excepted). Never edit a shipped one; add one
    /// and raise ``schemaVersion``. v1–v5 are the statements GRDB's migrator ran, verbatim; v6 is
    /// the first of this binding.
    static let migrations: [String] = [
        // v1: the first schema.
        """
                CREATE TABLE invocation (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    app_id TEXT NOT NULL,
                    source TEXT NOT NULL,
                    status TEXT NOT NULL,
                    detail TEXT NOT NULL DEFAULT '',
                    received_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL,
                    target TEXT,
                    route_source TEXT,
                    parameters TEXT,
                    launch_kind TEXT,
                    dedupe_key TEXT,
                    platform_data TEXT NOT NULL DEFAULT '{}',
                    attempts INTEGER NOT NULL DEFAULT 0,
                    redelivery INTEGER NOT NULL DEFAULT 0,
                    revision INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX invocation_by_time ON invocation(received_at, seq);
                CREATE INDEX invocation_by_app_time ON invocation(app_id, received_at, seq);
                CREATE INDEX invocation_open ON invocation(app_id) WHERE status IN ('pending', 'delivering');
                CREATE TABLE last_route (
                    app_id TEXT PRIMARY KEY NOT NULL,
                    invocation_id TEXT NOT NULL,
                    target TEXT NOT NULL,
                    parameters TEXT NOT NULL,
                    source TEXT NOT NULL
                );
                CREATE TABLE app_state (
                    app_id TEXT PRIMARY KEY NOT NULL,
                    state TEXT NOT NULL,
                    owner TEXT,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE shortcut (
                    app_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    type TEXT NOT NULL,
                    PRIMARY KEY (app_id, position)
                );
                CREATE TABLE notification (
                    id INTEGER PRIMARY KEY NOT NULL,
                    app_id TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    posted_at INTEGER NOT NULL
                );
        """,
        // v2: the schema version is recorded where any SQLite tool (and an older daemon) can read it.
        "PRAGMA user_version = 2",
        // v3: the latest check of each claimed domain (SetDomainVerification).
        """
                CREATE TABLE domain_check (
                    app_id TEXT NOT NULL,
                    domain TEXT NOT NULL,
                    verdict TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    checked_at INTEGER NOT NULL,
                    verified_at INTEGER NOT NULL,
                    PRIMARY KEY (app_id, domain)
                );
                PRAGMA user_version = 3;
        """,
        // v4: the last DeliveryJournal record that is in the database (replayed above it at open).
        """
                CREATE TABLE journal_state (
                    id INTEGER PRIMARY KEY CHECK (id = 0),
                    applied INTEGER NOT NULL
                );
                INSERT INTO journal_state (id, applied) VALUES (0, 0);
                PRAGMA user_version = 4;
        """,
        // v5: no delivery journal (SQLite's own log is the only one); its table goes. A journal
        // file left by v4 is applied and removed before this runs (``V4DeliveryJournal``).
        """
                DROP TABLE IF EXISTS journal_state;
                PRAGMA user_version = 5;
        """,
        // v6: de-duplication looks a key up when an invocation arrives, instead of loading every
        // key of the last hour at start (``firstInvocation(appID:dedupeKey:since:)``).
        """
                CREATE INDEX invocation_by_dedupe_key ON invocation(app_id, dedupe_key, received_at)
                    WHERE dedupe_key IS NOT NULL;
                PRAGMA user_version = 6;
        """,
    ]

    /// Migrates `db` from `version` to ``schemaVersion`` in one transaction (one sync of the log).
    /// A database at version 0 with an `invocation` table is version 1 (it predates `user_version`).
    static func migrate(_ db: SQLiteDatabase, from version: Int) throws(SQLiteError) {
        var current = version
        if current == 0, try db.tableExists("invocation") { current = 1 }
        guard current < schemaVersion else { return }
        try db.begin()
        do throws(SQLiteError) {
            for migration in migrations[current...] { try db.execute(migration) }
            try db.commit()
        } catch {
            try? db.rollback()
            throw error
        }
    }
}
