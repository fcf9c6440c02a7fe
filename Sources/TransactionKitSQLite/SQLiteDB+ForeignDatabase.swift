import Foundation
import GRDB
import TransactionKit

extension SQLiteDB {
    /// Whether `db` is a foreign database for `migrator`: it holds tables,
    /// views, indexes or triggers, but none of the migrator's migrations
    /// was ever applied to it (no `grdb_migrations` table, or one that
    /// lists other migrations only: another app's database).
    ///
    /// TransactionKit's own tables (`transactionkit_…`, created by any
    /// writable open) do not count. An empty database, and one that
    /// `migrator` started to migrate (even
    /// if another process is migrating it right now), is not foreign: GRDB
    /// creates `grdb_migrations` before the first migration's transaction.
    static func isForeign(_ db: Database, for migrator: DatabaseMigrator) throws -> Bool {
        guard !migrator.migrations.isEmpty else {
            return false
        }
        let objectCount = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'grdb_migrations'
              AND name NOT LIKE 'transactionkit\\_%' ESCAPE '\\'
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

    /// Refuses a foreign database before the pool opens it, when opening
    /// the pool would change the file: GRDB's `DatabasePool` switches a
    /// file in rollback-journal mode to WAL mode, and when the `-wal` file
    /// is missing or empty it commits a transaction (it creates and drops a
    /// table, so that the `-wal` file is not empty).
    ///
    /// The file is then read through a read-only connection (which may
    /// create an empty `-wal` and a `-shm` file next to a WAL-mode file, and
    /// never writes to the database file); the companions it created are
    /// removed again when the file is refused. A WAL-mode file whose
    /// `-wal` file is not empty is not changed by opening the pool; it is
    /// checked on the writer, under the write lock, before any migration
    /// (``migrate(writer:path:with:refusingForeignDatabase:)``).
    static func refuseForeignDatabaseBeforeOpening(
        path: String, migrator: DatabaseMigrator, options: Options
    ) throws(DBError) {
        guard !migrator.migrations.isEmpty, let mode = journalMode(at: path) else {
            return
        }
        let walPath = path + "-wal"
        let shmPath = path + "-shm"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? nil
        if mode == .wal, let walSize, walSize > 0 {
            return
        }
        let companionsBefore = (wal: walSize != nil, shm: FileManager.default.fileExists(atPath: shmPath))
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
            if !companionsBefore.wal, (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) == 0 {
                try? FileManager.default.removeItem(atPath: walPath)
            }
            if !companionsBefore.shm {
                try? FileManager.default.removeItem(atPath: shmPath)
            }
            throw foreignDatabaseError(path: path, operation: .open)
        }
    }

    private enum JournalMode {
        case rollback
        case wal
    }

    /// The journal mode that the header of the SQLite file at `path` says
    /// (file format versions, bytes 18 and 19), or `nil` when the file is
    /// empty or does not begin with SQLite's header.
    private static func journalMode(at path: String) -> JournalMode? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return nil
        }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else {
            return nil
        }
        let magic = Array("SQLite format 3\0".utf8)
        guard header.prefix(16).elementsEqual(magic) else {
            return nil
        }
        return header[18] == 2 && header[19] == 2 ? .wal : .rollback
    }
}
