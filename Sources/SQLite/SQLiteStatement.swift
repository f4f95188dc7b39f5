import CSQLite

/// A prepared statement, owning its `sqlite3_stmt` (finalised on deinit). Parameters are bound by
/// 1-based index, columns read by 0-based index, as in SQLite's C API. Used by one thread at a time,
/// with its ``SQLiteDatabase``.
public final class SQLiteStatement {
    /// The statement's SQL text (for errors).
    public let sql: String
    let handle: OpaquePointer
    /// The connection: SQLite keeps it alive (`sqlite3_close_v2`) until every statement is finalised.
    let connection: OpaquePointer

    init(sql: String, handle: OpaquePointer, connection: OpaquePointer) {
        self.sql = sql
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds text (SQLite copies it) or NULL.
    public func bind(_ index: Int32, _ value: String?) {
        guard var text = value else {
            sqlite3_bind_null(handle, index)
            return
        }
        text.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                let chars = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                _ = sqlite3_bind_text(handle, index, chars, Int32(bytes.count), csqlite_transient())
            } else {
                _ = sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
        }
    }

    /// Binds an integer or NULL.
    public func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds a value.
    public func bind(_ index: Int32, _ value: SQLiteValue) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
        case .text(let text): bind(index, text)
        }
    }

    /// Binds `values` to `?1`…`?n`.
    public func bind(_ values: [SQLiteValue]) {
        for (offset, value) in values.enumerated() { bind(Int32(offset + 1), value) }
    }

    /// Steps once: true when a row is ready to read, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError.statement(sql: sql, code: code, connection: connection)
        }
    }

    /// Resets the statement and clears its bindings, ready to run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values`, runs the statement to the end and resets it; returns the rows it changed.
    @discardableResult
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        defer { reset() }
        bind(values)
        while try step() {}
        return Int(sqlite3_changes(connection))
    }

    /// Binds `values`, reads each row with `row` and resets the statement.
    public func rows<T>(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        defer { reset() }
        bind(values)
        var result: [T] = []
        while try step() { result.append(try row(self)) }
        return result
    }

    /// Binds `values` and reads the first row with `row` (nil when there is none); resets the statement.
    public func first<T>(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> T) throws -> T? {
        defer { reset() }
        bind(values)
        return try step() ? try row(self) : nil
    }

    /// Whether the column of the current row is NULL.
    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column of the current row as text; nil for NULL.
    public func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column of the current row as an integer (0 for NULL).
    public func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column of the current row as an integer; nil for NULL.
    public func optionalInteger(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column)
    }

    /// The index of the result column named `name`, or nil.
    public func columnIndex(_ name: String) -> Int32? {
        for index in 0..<sqlite3_column_count(handle) where String(cString: sqlite3_column_name(handle, index)) == name {
            return index
        }
        return nil
    }
}
