import Foundation
import GRDBSQLite

/// A plain SQLite connection, outside GRDB and TransactionKit, for tests
/// that need another connection to hold a lock, or to read or shape a file
/// the way another program would.
final class RawSQLiteConnection {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        var description: String { "SQLite error \(code): \(message)" }
    }

    private var handle: OpaquePointer?

    /// Opens `path` read-write, creating it when `create` is true.
    init(_ path: String, create: Bool = false) throws {
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw Failure(code: code, message: message)
        }
    }

    /// Runs `sql` (one or more statements), discarding rows.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? ""
            sqlite3_free(error)
            throw Failure(code: sqlite3_extended_errcode(handle), message: message)
        }
    }

    /// The first column of the first row of `sql`, as an integer.
    func integer(_ sql: String) throws -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else {
            throw Failure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
        return Int(sqlite3_column_int64(statement, 0))
    }

    func close() {
        sqlite3_close(handle)
        handle = nil
    }

    deinit { close() }
}
