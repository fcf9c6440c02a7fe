import GRDBSQLite

/// A connection opened with the sqlite3 C API and nothing else: the
/// benchmarks' baseline, which shows what SQLite itself costs.
///
/// It applies the same settings as `SQLiteDB` (see ``BenchSettings``) so
/// that a ratio against it measures the layers above SQLite, not a different
/// configuration. Statements are prepared once and reused, the way a careful
/// C program would.
///
/// - Warning: Not thread-safe; one benchmark uses it from one thread.
final class RawSQLiteConnection {
    /// A statement prepared once and stepped many times.
    final class Statement {
        let handle: OpaquePointer
        private let connection: RawSQLiteConnection

        fileprivate init(handle: OpaquePointer, connection: RawSQLiteConnection) {
            self.handle = handle
            self.connection = connection
        }

        deinit { sqlite3_finalize(handle) }

        /// Steps the statement to its end (or its first row) and resets it.
        ///
        /// - Returns: the first column of the first row as an integer, or
        ///   `nil` when the statement returns no row.
        @discardableResult
        @inline(__always)
        func run() throws -> Int64? {
            defer { sqlite3_reset(handle) }
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return nil
            case SQLITE_ROW:
                return sqlite3_column_int64(handle, 0)
            case let code:
                throw connection.error(code)
            }
        }

        @inline(__always)
        func bind(_ value: Int64, at index: Int32) {
            sqlite3_bind_int64(handle, index, value)
        }

        @inline(__always)
        func bind(_ value: StaticString, at index: Int32) {
            // Static strings live forever: SQLITE_STATIC spares a copy.
            sqlite3_bind_text(handle, index, UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self), Int32(value.utf8CodeUnitCount), nil)
        }
    }

    /// An error reported by SQLite.
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        var description: String { "SQLite error \(code): \(message)" }
    }

    let handle: OpaquePointer

    /// Opens (and creates) the database at `path` and applies `settings`.
    init(path: String, settings: BenchSettings) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw Failure(code: code, message: "cannot open \(path)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 5000)
        for pragma in settings.connectionPragmas {
            try execute(pragma)
        }
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more SQL statements, ignoring their rows.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Compiles one SQL statement.
    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return Statement(handle: statement, connection: self)
    }

    /// The value of a pragma that returns one text value (for the settings line).
    func pragmaValue(_ name: String) throws -> String {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "PRAGMA \(name)", -1, &statement, nil) == SQLITE_OK else {
            throw error(sqlite3_errcode(handle))
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else {
            return "?"
        }
        return String(cString: text)
    }

    fileprivate func error(_ code: Int32) -> Failure {
        Failure(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}
