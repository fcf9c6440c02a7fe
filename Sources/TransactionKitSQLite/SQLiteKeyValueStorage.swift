import Foundation
import GRDB
import TransactionKit

/// The storage behind `KeyValueStore` on an ``SQLiteDB``: the table
/// `transactionkit_key_value`, read and written through the transaction's
/// own connection (so its writes commit and roll back with the rest).
///
/// ```sql
/// CREATE TABLE transactionkit_key_value (
///     collection TEXT NOT NULL,
///     key TEXT NOT NULL,
///     value ANY NOT NULL,
///     PRIMARY KEY (collection, key)
/// ) STRICT
/// ```
///
/// `value ANY` in a `STRICT` table keeps each value's storage class as
/// bound (`INTEGER`, `REAL`, `TEXT`, `BLOB`), with no affinity conversion.
/// Every statement is a cached prepared statement; a write is one upsert.
/// See `SQLiteDB+KeyValueTable.swift` for when the table is created.
struct SQLiteKeyValueStorage: KeyValueStorage {
    static let tableName = "transactionkit_key_value"

    /// Names the database in errors.
    let path: String

    func value(forKey key: String, in collection: String, _ transaction: DBReadTransaction) throws -> KeyValueStore.Value? {
        try reading(transaction, orIfNoTable: nil) { db in
            let statement = try db.cachedStatement(
                sql: "SELECT value FROM transactionkit_key_value WHERE collection = ? AND key = ?")
            guard let value = try DatabaseValue.fetchOne(statement, arguments: [collection, key]) else { return nil }
            return Self.value(value)
        }
    }

    func setValue(
        _ value: KeyValueStore.Value, forKey key: String, in collection: String, _ transaction: DBWriteTransaction
    ) throws {
        try writing(transaction) { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO transactionkit_key_value (collection, key, value) VALUES (?, ?, ?)
                ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value
                """)
            try statement.execute(arguments: [collection, key, Self.databaseValue(value)])
        }
    }

    func removeValue(forKey key: String, in collection: String, _ transaction: DBWriteTransaction) throws -> Bool {
        try writing(transaction) { db in
            let statement = try db.cachedStatement(
                sql: "DELETE FROM transactionkit_key_value WHERE collection = ? AND key = ?")
            try statement.execute(arguments: [collection, key])
            return db.changesCount > 0
        }
    }

    func removeAll(in collection: String, _ transaction: DBWriteTransaction) throws -> Int {
        try writing(transaction) { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM transactionkit_key_value WHERE collection = ?")
            try statement.execute(arguments: [collection])
            return db.changesCount
        }
    }

    func keys(in collection: String, _ transaction: DBReadTransaction) throws -> [String] {
        try reading(transaction, orIfNoTable: []) { db in
            // The column's BINARY collation orders by UTF-8 bytes.
            let statement = try db.cachedStatement(
                sql: "SELECT key FROM transactionkit_key_value WHERE collection = ? ORDER BY key")
            return try String.fetchAll(statement, arguments: [collection])
        }
    }

    func count(in collection: String, _ transaction: DBReadTransaction) throws -> Int {
        try reading(transaction, orIfNoTable: 0) { db in
            let statement = try db.cachedStatement(
                sql: "SELECT COUNT(*) FROM transactionkit_key_value WHERE collection = ?")
            return try Int.fetchOne(statement, arguments: [collection]) ?? 0
        }
    }

    // MARK: - Private

    /// The transaction's connection. `KeyValueStore` checked that the
    /// transaction is active on this thread, and it came from this
    /// database's scope, so it is an `SQLiteDB` transaction.
    private func connection(_ transaction: DBReadTransaction) throws(DBMisuseError) -> Database {
        guard let db = transaction.connection as? Database else {
            preconditionFailure("TransactionKit internal error: an SQLiteDB transaction without a connection")
        }
        try SQLiteDB.checkBridgedTransactionCanRunSQL(transaction, db, for: "KeyValueStore", at: transaction.openedAt)
        return db
    }

    /// Runs a read; a database opened read-only before any writable open
    /// created the table reads as empty.
    private func reading<R>(
        _ transaction: DBReadTransaction, orIfNoTable empty: R, _ body: (Database) throws -> R
    ) throws -> R {
        let db = try connection(transaction)
        do {
            return try body(db)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_ERROR
            && error.message?.contains("no such table: \(Self.tableName)") == true
        {
            return empty
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: .read) ?? error
        }
    }

    /// Runs a write; storage faults come out as `DBError`, as they would
    /// from the block.
    private func writing<R>(_ transaction: DBWriteTransaction, _ body: (Database) throws -> R) throws -> R {
        let db = try connection(transaction)
        do {
            return try body(db)
        } catch {
            throw SQLiteErrors.constraintViolation(from: error, path: path)
                ?? SQLiteErrors.storageError(from: error, path: path, operation: .write)
                ?? error
        }
    }

    private static func value(_ value: DatabaseValue) -> KeyValueStore.Value? {
        switch value.storage {
        case .null: nil
        case let .int64(integer): .integer(integer)
        case let .double(real): .real(real)
        case let .string(text): .text(text)
        case let .blob(data): .blob(data)
        }
    }

    private static func databaseValue(_ value: KeyValueStore.Value) -> DatabaseValue {
        switch value {
        case let .integer(integer): integer.databaseValue
        case let .real(real): real.databaseValue
        case let .text(text): text.databaseValue
        case let .blob(data): data.databaseValue
        }
    }
}
