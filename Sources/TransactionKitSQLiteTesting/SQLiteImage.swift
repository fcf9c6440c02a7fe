import GRDB
import GRDBSQLite

/// The serialized bytes of a migrated template database
/// (`sqlite3_serialize`), and how to restore them into a fresh connection
/// (`sqlite3_deserialize`).
///
/// The bytes are immutable once captured, so any number of threads restore
/// them at once without a lock and without touching the template's
/// connection. Each restore copies them into a buffer owned by the receiving
/// connection (`SQLITE_DESERIALIZE_FREEONCLOSE`, `RESIZEABLE`): two restored
/// databases share nothing.
struct SQLiteImage: Sendable {
    /// The database file image: the same bytes a file database would hold.
    let bytes: [UInt8]

    /// The identifiers of the migrations applied to the image, in order.
    let migrationIdentifiers: [String]

    /// Captures the `main` database of `db`.
    ///
    /// - Throws: `DatabaseError` when SQLite cannot serialize.
    static func serialize(_ db: Database, migrationIdentifiers: [String]) throws -> SQLiteImage {
        let connection = try connection(of: db)
        var size: sqlite3_int64 = 0
        guard let pointer = sqlite3_serialize(connection, "main", &size, 0) else {
            let code = sqlite3_errcode(connection)
            if code == SQLITE_OK && size == 0 {
                // An empty database has no page to copy.
                return SQLiteImage(bytes: [], migrationIdentifiers: migrationIdentifiers)
            }
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code == SQLITE_OK ? SQLITE_NOMEM : code),
                message: "sqlite3_serialize failed")
        }
        defer { sqlite3_free(pointer) }
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(size)))
        return SQLiteImage(bytes: bytes, migrationIdentifiers: migrationIdentifiers)
    }

    /// Replaces the `main` database of `db` with a private copy of the image.
    ///
    /// `db` must not be inside a transaction. GRDB's schema and statement
    /// caches are cleared afterwards, since the schema changed under them.
    ///
    /// - Throws: `DatabaseError` when SQLite cannot allocate or deserialize.
    func restore(into db: Database) throws {
        guard !bytes.isEmpty else { return }
        let connection = try Self.connection(of: db)
        let count = bytes.count
        guard let buffer = sqlite3_malloc64(sqlite3_uint64(count)) else {
            throw DatabaseError(resultCode: .SQLITE_NOMEM, message: "cannot allocate \(count) bytes for a template copy")
        }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: source.baseAddress!, byteCount: count)
        }
        // On failure, SQLite frees the buffer itself (FREEONCLOSE).
        let code = sqlite3_deserialize(
            connection, "main",
            buffer.assumingMemoryBound(to: UInt8.self),
            sqlite3_int64(count), sqlite3_int64(count),
            UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "sqlite3_deserialize failed: \(String(cString: sqlite3_errmsg(connection)))")
        }
        db.clearSchemaCache()
    }

    private static func connection(of db: Database) throws -> OpaquePointer {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
        }
        return connection
    }
}
