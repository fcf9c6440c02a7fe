import GRDB
import TransactionKitSQLite

/// The app's database, owned by its legacy layer the way an app that
/// predates TransactionKit owns it: the app opens a GRDB `DatabasePool` on
/// its file (an in-memory `DatabaseQueue` for the demo and tests), runs its
/// own migrations (``MessagingSchema/migrator``), and legacy code writes
/// with `writer.write { database in … }`.
///
/// TransactionKit does not open a second pool on the file: ``adopt()``
/// hands the app's pool or queue to `SQLiteDB(adopting:)`, and migrated
/// managers run on it, so that legacy and migrated writes share one writer.
///
/// ```swift
/// let app = try LegacyAppDatabase(path: path)    // the app opens its pool and migrates, as it always did
/// let db = try app.adopt()                        // SQLiteDB(adopting: pool), for the migrated managers
/// let services = MessagingServices.live(db: db, notifier: notifier)
/// ```
///
/// **Lifetime:** the pool is the app's. Close the adopted `SQLiteDB` first
/// (it finalizes its statements on the app's writer), then ``close()``.
package final class LegacyAppDatabase: Sendable {
    /// The GRDB connection(s) the app opened.
    package enum Storage: Sendable {
        /// A file database: one writer and concurrent readers, in WAL mode.
        case pool(DatabasePool)
        /// An in-memory database: one connection.
        case queue(DatabaseQueue)
    }

    /// The app's pool or queue.
    package let storage: Storage

    /// The migrations this open applied, in order (empty when the file was
    /// already up to date).
    package let migrationsAppliedOnOpen: [String]

    /// Opens the app's file database in a `DatabasePool` and migrates it.
    ///
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened or a
    ///   migration fails.
    package convenience init(path: String) throws {
        var configuration = Configuration()
        // Other processes may open the file too (several `txkit-demo
        // --path` at once): wait for their locks rather than fail at once.
        configuration.busyMode = .timeout(5)
        try self.init(.pool(DatabasePool(path: path, configuration: configuration)))
    }

    /// Opens a private in-memory database in a `DatabaseQueue` and migrates it.
    ///
    /// - Throws: GRDB's `DatabaseError` when a migration fails.
    package static func inMemory() throws -> LegacyAppDatabase {
        try LegacyAppDatabase(.queue(DatabaseQueue()))
    }

    private init(_ storage: Storage) throws {
        self.storage = storage
        let writer = Self.writer(of: storage)
        let migrator = MessagingSchema.migrator
        let before = try writer.read { database in try migrator.appliedIdentifiers(database) }
        try migrator.migrate(writer)
        migrationsAppliedOnOpen = migrator.migrations.filter { !before.contains($0) }
    }

    /// The writer legacy code uses: `try app.writer.write { database in … }`.
    package var writer: any DatabaseWriter {
        Self.writer(of: storage)
    }

    /// Whether the database is in memory (a queue) rather than a file (a pool).
    package var isInMemory: Bool {
        if case .queue = storage { true } else { false }
    }

    // snippet:begin adopt-app-database
    /// A TransactionKit database on the app's own pool or queue: the one the
    /// migrated managers get. Call it once, at startup, after the migrations.
    ///
    /// - Throws: `DBError` when TransactionKit's key-value table cannot be
    ///   created in the app's database.
    package func adopt() throws -> SQLiteDB {
        switch storage {
        case .pool(let pool): try SQLiteDB(adopting: pool)
        case .queue(let queue): try SQLiteDB(adopting: queue)
        }
    }
    // snippet:end adopt-app-database

    /// Closes the app's connections. Close the adopted `SQLiteDB` first.
    ///
    /// - Throws: GRDB's `DatabaseError` when a connection cannot close.
    package func close() throws {
        if case .pool(let pool) = storage {
            // GRDB closes the writer before the readers, and a read-only
            // connection closed last cannot remove the -wal and -shm files:
            // close the idle readers first.
            pool.releaseMemory()
        }
        try writer.close()
    }

    private static func writer(of storage: Storage) -> any DatabaseWriter {
        switch storage {
        case .pool(let pool): pool
        case .queue(let queue): queue
        }
    }
}
