import GRDB
import TransactionKit

extension SQLiteDB {
    /// The version of the tables TransactionKit keeps in every writable
    /// database, recorded in `transactionkit_schema`.
    static let keyValueSchemaVersion = 1

    /// Creates (or migrates) TransactionKit's own tables, independently of
    /// the application's migrator:
    ///
    /// ```sql
    /// CREATE TABLE transactionkit_schema (
    ///     component TEXT PRIMARY KEY NOT NULL,
    ///     version INTEGER NOT NULL
    /// ) STRICT;
    /// CREATE TABLE transactionkit_key_value (
    ///     collection TEXT NOT NULL,
    ///     key TEXT NOT NULL,
    ///     value ANY NOT NULL,
    ///     PRIMARY KEY (collection, key)
    /// ) STRICT;
    /// ```
    ///
    /// Called when a writable database opens, after the application's
    /// migrations: a file refused as foreign (see
    /// ``Options/adoptsForeignDatabase``) is left unchanged, and a
    /// migration cannot use the store. The version is first
    /// read on the writer connection without a transaction: an up-to-date
    /// database (every open after the first) costs one read and no write
    /// transaction. Otherwise the
    /// tables are created in one `BEGIN IMMEDIATE` transaction that reads
    /// the version again, so that several processes opening a new file at
    /// once create them exactly once. A read-only open skips this; its
    /// store reads as empty when the table does not exist.
    func prepareKeyValueTable() throws(DBError) {
        do {
            try writer.writeWithoutTransaction { db in
                // On the writer connection, outside a transaction: an open
                // that finds the tables current takes no write lock, and
                // opens no reader connection.
                if try Self.keyValueVersion(db) >= Self.keyValueSchemaVersion {
                    return
                }
                try db.inTransaction(.immediate) {
                    if try Self.keyValueVersion(db) < 1 {
                        try db.execute(sql: """
                            CREATE TABLE IF NOT EXISTS transactionkit_schema (
                                component TEXT PRIMARY KEY NOT NULL,
                                version INTEGER NOT NULL
                            ) STRICT;
                            CREATE TABLE IF NOT EXISTS transactionkit_key_value (
                                collection TEXT NOT NULL,
                                key TEXT NOT NULL,
                                value ANY NOT NULL,
                                PRIMARY KEY (collection, key)
                            ) STRICT;
                            INSERT INTO transactionkit_schema (component, version) VALUES ('key_value', 1)
                            ON CONFLICT (component) DO UPDATE SET version = excluded.version;
                            """)
                    }
                    return .commit
                }
            }
        } catch {
            if let storageError = SQLiteErrors.storageError(from: error, path: path, operation: .migrate) {
                throw storageError
            }
            throw DBError(
                kind: .migrationFailed, operation: .migrate, path: path,
                resultCode: (error as? DatabaseError)?.extendedResultCode.rawValue,
                message: "TransactionKit could not create its key-value table: \(error)",
                underlyingError: error)
        }
    }

    /// The key-value tables' version, 0 when they do not exist.
    private static func keyValueVersion(_ db: Database) throws -> Int {
        guard try db.tableExists("transactionkit_schema") else { return 0 }
        return try Int.fetchOne(
            db, sql: "SELECT version FROM transactionkit_schema WHERE component = 'key_value'") ?? 0
    }
}
