import CSQLite

/// One connection to a SQLite database, owning its `sqlite3*` (as Chromium's `sql::Database`):
/// prepared statements cached by their SQL text, explicit transactions, errors as ``SQLiteError``.
/// Opened without SQLite's own mutex: used by one thread at a time, its owner serialising it (the
/// store keeps each connection in a `LockedValue`), hence `@unchecked Sendable`.
public final class SQLiteDatabase: @unchecked Sendable {
    /// The database file's path.
    public let path: String
    let connection: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    private var walHook: WALHook?
    private var isClosed = false

    /// How a connection opens its file.
    public struct OpenMode: Sendable {
        let flags: Int32
        /// Read and write, creating the file if missing.
        public static let readWriteCreate = OpenMode(flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        /// Read and write an existing file.
        public static let readWrite = OpenMode(flags: SQLITE_OPEN_READWRITE)
        /// Read only.
        public static let readOnly = OpenMode(flags: SQLITE_OPEN_READONLY)
    }

    /// Opens the database at `path`; `busyTimeout` is how long a statement waits for a lock held by
    /// another connection before it fails with `SQLITE_BUSY`.
    public init(path: String, mode: OpenMode = .readWriteCreate, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, mode.flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError.open(
                path: path, code: code & 0xff, extendedCode: handle.map(sqlite3_extended_errcode) ?? code,
                message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code)),
                systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0)
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        connection = handle
        let milliseconds = busyTimeout.components.seconds * 1_000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    deinit {
        close()
    }

    /// Finalises the cached statements and closes the connection (SQLite finishes closing once the
    /// last statement still held elsewhere is finalised). Later calls do nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        cache = [:]
        sqlite3_wal_hook(connection, nil, nil)
        walHook = nil
        sqlite3_close_v2(connection)
    }

    /// Runs `sql`, one or more statements with no parameters and no rows to read (pragmas, DDL).
    public func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError.statement(sql: sql, code: code, connection: connection) }
    }

    /// The cached prepared statement for `sql`, prepared on first use; reset and unbound.
    public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = cache[sql] { return cached }
        let statement = try prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    /// A new prepared statement for `sql`, not cached (statements run once).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try prepare(sql, persistent: false)
    }

    private func prepare(_ sql: String, persistent: Bool) throws(SQLiteError) -> SQLiteStatement {
        var handle: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(connection, sql, -1, flags, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError.statement(sql: sql, code: code == SQLITE_OK ? SQLITE_MISUSE : code, connection: connection)
        }
        return SQLiteStatement(sql: sql, handle: handle, connection: connection)
    }

    /// Runs `sql` (cached) with `values` and returns the rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try statement(sql).run(values)
    }

    /// The first column of the first row of `sql` (cached) as an integer, nil when there is no row.
    public func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(values)
        return try statement.step() ? statement.optionalInteger(0) : nil
    }

    /// The first column of the first row of `sql` (cached) as text, nil when there is no row.
    public func text(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(values)
        return try statement.step() ? statement.text(0) : nil
    }

    /// `BEGIN IMMEDIATE`: a write transaction that takes the write lock now.
    public func begin() throws(SQLiteError) {
        try statement("BEGIN IMMEDIATE").run()
    }

    /// `COMMIT`.
    public func commit() throws(SQLiteError) {
        try statement("COMMIT").run()
    }

    /// `ROLLBACK`, if a transaction is open (SQLite rolls some failures back by itself).
    public func rollback() throws(SQLiteError) {
        guard isInTransaction else { return }
        try statement("ROLLBACK").run()
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when
    /// it (or the commit) throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let value = try body()
            try commit()
            return value
        } catch {
            try? rollback()
            throw error
        }
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back to (and released) when it throws.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try statement("SAVEPOINT nested").run()
        do {
            let value = try body()
            try statement("RELEASE nested").run()
            return value
        } catch {
            try? statement("ROLLBACK TO nested").run()
            try? statement("RELEASE nested").run()
            throw error
        }
    }

    /// Whether a transaction is open.
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(connection) == 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int {
        Int(sqlite3_changes(connection))
    }

    /// Whether the schema has a table named `name`.
    public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try integer("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [.text(name)]) != nil
    }

    /// Keeps the `-wal` file when the last connection closes (`SQLITE_FCNTL_PERSIST_WAL`), so a
    /// start need not create it again.
    public func persistWAL(_ persist: Bool) {
        var value: Int32 = persist ? 1 : 0
        sqlite3_file_control(connection, "main", SQLITE_FCNTL_PERSIST_WAL, &value)
    }

    /// Calls `body` with the log's size in frames after each commit of this connection
    /// (`sqlite3_wal_hook`, which also turns SQLite's auto-checkpoint off: the hook takes its place).
    public func onCommit(_ body: @escaping (Int) -> Void) {
        let hook = WALHook(body)
        walHook = hook
        sqlite3_wal_hook(connection, { context, _, _, frames in
            Unmanaged<WALHook>.fromOpaque(context!).takeUnretainedValue().body(Int(frames))
            return SQLITE_OK
        }, Unmanaged.passUnretained(hook).toOpaque())
    }

    /// How a checkpoint treats readers and writers (`SQLITE_CHECKPOINT_*`).
    public enum CheckpointMode: Sendable {
        case passive, full, restart, truncate

        var value: Int32 {
            switch self {
            case .passive: SQLITE_CHECKPOINT_PASSIVE
            case .full: SQLITE_CHECKPOINT_FULL
            case .restart: SQLITE_CHECKPOINT_RESTART
            case .truncate: SQLITE_CHECKPOINT_TRUNCATE
            }
        }
    }

    /// Checkpoints the write-ahead log; returns its size in frames and how many were copied back.
    @discardableResult
    public func checkpoint(_ mode: CheckpointMode) throws(SQLiteError) -> (logFrames: Int, checkpointedFrames: Int) {
        var log: Int32 = 0
        var done: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(connection, nil, mode.value, &log, &done)
        guard code == SQLITE_OK else {
            throw .checkpoint(
                code: code & 0xff, extendedCode: sqlite3_extended_errcode(connection),
                message: String(cString: sqlite3_errmsg(connection)), systemErrno: SQLiteError.lastErrno(connection, code: code))
        }
        return (Int(log), Int(done))
    }

    /// The SQLite library's version, "3.40.1".
    public static var libraryVersion: String {
        String(cString: sqlite3_libversion())
    }
}

/// The closure behind ``SQLiteDatabase/onCommit(_:)``, kept alive by the connection that calls it.
private final class WALHook {
    let body: (Int) -> Void

    init(_ body: @escaping (Int) -> Void) {
        self.body = body
    }
}
