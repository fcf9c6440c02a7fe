import Foundation
import GRDB
import TransactionKit

extension SQLiteDB {
    /// Whether `db` is a foreign database for `migrator`: it holds tables,
    /// views, indexes or triggers, but none of the migrator's migrations
    /// was ever applied to it (no `grdb_migrations` table, or one that
    /// lists other migrations only: another app's database).
    ///
    /// An empty database, and one that `migrator` started to migrate (even
    /// if another process is migrating it right now), is not foreign: GRDB
    /// creates `grdb_migrations` before the first migration's transaction.
    static func isForeign(_ db: Database, for migrator: DatabaseMigrator) throws -> Bool {
        guard !migrator.migrations.isEmpty else {
            return false
        }
        let objectCount = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'grdb_migrations'
            """) ?? 0
        guard objectCount > 0 else {
            return false
        }
        return try migrator.appliedIdentifiers(db).isDisjoint(with: migrator.migrations)
    }

    /// The error of a foreign database, before anything was changed.
    static func foreignDatabaseError(path: String, operation: DBError.Operation) -> DBError {
        var error = DBError(
            kind: .foreignDatabase, operation: operation, path: path,
            message: "the file holds tables, but none of the migrations given to open it was ever applied to it")
        error.specificAdvice = "Check the path. To take this database over, open it with "
            + "SQLiteDB.Options.adoptsForeignDatabase = true: the migrations then run on it, and the file is "
            + "switched to WAL mode. The file was left unchanged."
        return error
    }

    /// Refuses a foreign database in rollback-journal mode before the pool
    /// opens it: opening a `DatabasePool` switches the file to WAL mode, a
    /// change to the file.
    ///
    /// The file is read through a read-only connection, only when its
    /// header says it is a non-empty SQLite database in rollback-journal
    /// mode. A file in WAL mode is not changed by opening the pool; it is
    /// checked on the writer, under the write lock, before any migration
    /// (``migrate(writer:path:with:refusingForeignDatabase:)``).
    static func refuseForeignDatabaseInRollbackMode(
        path: String, migrator: DatabaseMigrator, options: Options
    ) throws(DBError) {
        guard !migrator.migrations.isEmpty, isRollbackJournalDatabase(at: path) else {
            return
        }
        var configuration = options.grdbConfiguration(label: path)
        configuration.readonly = true
        let foreign: Bool
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            foreign = try queue.read { db in try isForeign(db, for: migrator) }
            try queue.close()
        } catch {
            throw SQLiteErrors.openError(from: error, path: path)
        }
        if foreign {
            throw foreignDatabaseError(path: path, operation: .open)
        }
    }

    /// Whether the file at `path` begins with an SQLite header that says
    /// rollback-journal mode (file format versions 1, bytes 18 and 19).
    private static func isRollbackJournalDatabase(at path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return false
        }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else {
            return false
        }
        let magic = Array("SQLite format 3\0".utf8)
        return header.prefix(16).elementsEqual(magic) && (header[18] == 1 || header[19] == 1)
    }
}
