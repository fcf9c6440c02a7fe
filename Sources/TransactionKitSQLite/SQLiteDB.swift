import GRDB
import TransactionKit

/// A ``/TransactionKit/DB`` backed by SQLite, through GRDB.swift and the system SQLite.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("v1") { db in
///     try db.create(table: "message") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("text", .text).notNull()
///     }
/// }
/// let db = try SQLiteDB(path: "/var/lib/app/app.sqlite", migrator: migrator)
/// let manager = ComposeManager(db: db, messages: MessageFinder())
/// ```
///
/// A file database is in WAL mode: one writer connection (a GRDB
/// `DatabasePool`'s), and read-only connections (GRDB `DatabaseQueue`s kept
/// by TransactionKit, at most ``Options/maximumReaderCount``) whose reads run
/// concurrently with each other and with a write, each on its own snapshot.
/// An in-memory database (``inMemory(migrator:options:)``) is a private GRDB
/// `DatabaseQueue`; two of them never share data.
///
/// **Defaults:** foreign keys on, a 5 second busy timeout,
/// `synchronous=FULL` (a committed transaction survives a crash of the
/// process and of the machine), and a new database file created with `0600`
/// permissions (SQLite gives its `-wal` and `-shm` files the same). See
/// ``Options``.
///
/// **The library's own tables:** a writable open creates (once) the tables
/// behind ``/TransactionKit/KeyValueStore``, independently of your migrator
/// and after it ran: `transactionkit_key_value (collection TEXT, key TEXT,
/// value ANY, PRIMARY KEY (collection, key)) STRICT`, and
/// `transactionkit_schema (component, version)`, which records their
/// version. Values keep SQLite's native types, so plain SQL reads them. A
/// read-only open creates nothing, and reads an empty store if the tables
/// are missing.
///
/// **Commit observers** (``/TransactionKit/DB/observeCommits(tables:keyValueCollections:queue:_:)``)
/// hear about the tables whose rows SQLite inserted, updated or deleted
/// (GRDB's transaction observer; not `WITHOUT ROWID` tables), plus those a
/// transaction declared.
///
/// **Transaction semantics:** those of ``/TransactionKit/DB``. Write transactions begin with
/// `BEGIN IMMEDIATE`, so a busy database is reported when the write begins,
/// not halfway through it.
///
/// **Transactions** are begun and committed with statements prepared once
/// per connection (GRDB's `inTransaction` compiles `BEGIN` and `COMMIT`
/// again on every call), and finders still receive GRDB's `Database`: its
/// cached statements, records, and the schema cache (cleared when another
/// connection changed the schema) work as in GRDB.
///
/// **Threads:** `SQLiteDB` is `Sendable`. Synchronous `read` and `write`
/// block the calling thread; their blocks run on the connections' GRDB
/// queues. Async variants suspend the caller instead.
///
/// **Errors:** opening, migrating, beginning and committing fail with
/// ``/TransactionKit/DBError``, which names the path; so do storage faults (busy, full disk,
/// read-only, corrupt, I/O) raised by a statement inside a block. A
/// constraint violation, inside the block or at commit, is thrown as
/// ``/TransactionKit/DBConstraintViolation`` (kind, table, columns). Other
/// errors thrown by a block (including other SQL errors) are rethrown
/// unchanged.
///
/// - Warning: Nested transactions on the same `SQLiteDB`, and transactions
///   used after their block returned, stop the process with a message naming
///   the call site.
public final class SQLiteDB: DB, DatabaseScopeProviding {
    /// The path of the database file, or `in-memory`.
    public let path: String

    /// Whether this database lives in memory only.
    public let isInMemory: Bool

    /// Whether this database was opened read-only (``Options/readOnly``):
    /// every write throws ``/TransactionKit/DBError`` of kind ``/TransactionKit/DBError/Kind/readOnly``.
    public let isReadOnly: Bool

    /// The identifiers of the migrations that opening this database
    /// applied, in the order they ran; empty when the database was already
    /// up to date.
    ///
    /// ```swift
    /// let db = try SQLiteDB(path: path, migrator: AppSchema.migrator)
    /// if db.migrationsAppliedOnOpen.isEmpty {
    ///     print("schema already current")
    /// } else {
    ///     print("migrated: \(db.migrationsAppliedOnOpen.joined(separator: ", "))")
    /// }
    /// ```
    ///
    /// Only the migrations this open applied are listed: when another
    /// process opened the same file at the same moment and applied some of
    /// them, those are not. Empty for a read-only open (which never
    /// migrates) and for a copy made by `SQLiteTemplate` (whose template
    /// was migrated once, before).
    public let migrationsAppliedOnOpen: [String]

    /// The GRDB connection(s): a `DatabasePool` for a file, a
    /// `DatabaseQueue` in memory. For the package's own tools and tests.
    package let writer: any DatabaseWriter

    let engine: TransactionEngine<SQLiteBackend>

    /// Whether the GRDB pool or queue is the application's
    /// (`SQLiteDB(adopting:)`), which `close()` leaves open.
    package let isAdopted: Bool

    /// The writer's connection, which `writeTransaction(bridging:)` accepts.
    let writerConnection: ObjectIdentifier

    /// The transactions bridged from the application's open transactions.
    let bridges = SQLiteBridges()

    /// Wraps an already configured GRDB writer. The package's test-database
    /// helpers use it; applications use the public initializers.
    package init(
        writer: any DatabaseWriter, path: String, isInMemory: Bool, isReadOnly: Bool = false,
        migrationsAppliedOnOpen: [String] = [], isAdopted: Bool = false
    ) {
        self.writer = writer
        self.migrationsAppliedOnOpen = migrationsAppliedOnOpen
        self.path = path
        self.isInMemory = isInMemory
        self.isReadOnly = isReadOnly
        let writerConnection = writer.unsafeReentrantWrite { ObjectIdentifier($0) }
        let scope = DatabaseScope(
            databaseName: "SQLiteDB", connectionType: Database.self, keyValueStorage: SQLiteKeyValueStorage(path: path),
            readTracking: SQLiteReadTracking(applicationConnection: isAdopted ? writerConnection : nil))
        let changeTracker = SQLiteChangeTracker(observers: scope.commitObservers, path: path)
        if !isAdopted {
            writer.add(transactionObserver: changeTracker, extent: .observerLifetime)
        }
        self.isAdopted = isAdopted
        self.writerConnection = writerConnection
        let readers = (writer as? DatabasePool).map { pool in
            SQLiteReaderPool(path: pool.path, writerConfiguration: pool.configuration)
        }
        self.engine = TransactionEngine(
            backend: SQLiteBackend(
                writer: writer, readers: readers, writerStatements: SQLiteWriterStatements(writer: writer),
                path: path, isReadOnly: isReadOnly, closing: SQLiteClosing(),
                changeTracker: changeTracker, isAdopted: isAdopted),
            scope: scope)
    }

    /// Opens (or creates) the database file at `path`, in WAL mode, and
    /// migrates it.
    ///
    /// ```swift
    /// let db = try SQLiteDB(path: appSupport + "/app.sqlite", migrator: AppSchema.migrator)
    /// ```
    ///
    /// **Transaction semantics:** each migration runs in its own transaction,
    /// so a failing migration leaves the database at its last good version.
    /// ``migrationsAppliedOnOpen`` lists those this open applied.
    /// TransactionKit's key-value tables are created after them, on the
    /// first writable open (later opens only read their version).
    ///
    /// **Several processes** may open the same file at once, even a new one:
    /// each waits for the others' locks within the busy timeout (also while
    /// the new file is switched to WAL), and each migration is applied
    /// exactly once, by whichever process takes the write lock first. A
    /// process whose migration fails because another process applied it
    /// meanwhile reads the applied migrations again under the write lock
    /// and goes on from there.
    ///
    /// **Files:** a new database file is created by TransactionKit with
    /// `0600` permissions, also when the path is a symbolic link to a file
    /// that does not exist yet (the link's target is created). An existing
    /// empty file of yours is adopted as a new database and gets `0600`
    /// permissions. When the open fails, the file it created is removed if
    /// nothing was written to it, and the permissions it changed are
    /// restored. Before anything is created, the path is checked: a path
    /// too long for SQLite or the system, a missing directory, and a path
    /// that names something other than a regular file (a directory,
    /// `/dev/null`) each fail with an error that says so.
    ///
    /// **Somebody else's database:** with a migrator, a file that holds
    /// tables but none of the migrator's migrations (a foreign database) is
    /// refused with ``/TransactionKit/DBError/Kind/foreignDatabase`` before
    /// anything in it changes (no switch to WAL mode, no migrations table),
    /// unless ``Options/adoptsForeignDatabase`` is set. A file that is not
    /// an SQLite database at all fails with
    /// ``/TransactionKit/DBError/Kind/notADatabase`` and is left unchanged.
    ///
    /// **Thread:** opening and migrating happen synchronously, on the
    /// calling thread.
    ///
    /// - Parameters:
    ///   - path: The database file. Its directory must exist. A new file is
    ///     created with `0600` permissions.
    ///   - migrator: Migrations to apply on open, if any. With
    ///     ``Options/readOnly``, none is applied: a pending migration fails
    ///     the open with `.readOnly`.
    ///   - options: Busy timeout, durability, reader count, read-only mode,
    ///     foreign databases, an integrity check, and connection preparation.
    /// - Throws: ``/TransactionKit/DBError`` naming `path`: `.missingDirectory`, `.cannotOpen`,
    ///   `.readOnly`, `.notADatabase`, `.foreignDatabase`, `.corrupt`, `.busy`,
    ///   `.migrationFailed` (also when the key-value tables cannot be
    ///   created), `.integrityCheckFailed`, …
    public convenience init(
        path: String,
        migrator: DatabaseMigrator? = nil,
        options: Options = Options()
    ) throws(DBError) {
        let (pool, applied) = try Self.openDatabase(path: path, migrator: migrator, options: options)
        self.init(
            writer: pool, path: path, isInMemory: false, isReadOnly: options.readOnly,
            migrationsAppliedOnOpen: applied)
        if !options.readOnly {
            try prepareKeyValueTable()
        }
    }

    /// Creates a private in-memory database and migrates it.
    ///
    /// ```swift
    /// let db = try SQLiteDB.inMemory(migrator: AppSchema.migrator)
    /// ```
    ///
    /// Two in-memory databases never share data; the data is gone when the
    /// `SQLiteDB` is deallocated. For many fresh databases in tests, prefer
    /// a template copy (see the Testing guide), which skips the migrations.
    ///
    /// - Parameters:
    ///   - migrator: Migrations to apply, if any (also with
    ///     ``Options/readOnly``: a read-only in-memory database is migrated,
    ///     then refuses writes).
    ///   - options: Busy timeout, read-only mode and connection preparation
    ///     (durability and reader count do not apply in memory).
    /// - Throws: ``/TransactionKit/DBError`` with path `in-memory`.
    public static func inMemory(
        migrator: DatabaseMigrator? = nil,
        options: Options = Options()
    ) throws(DBError) -> SQLiteDB {
        let path = "in-memory"
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: options.grdbConfiguration(label: path))
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: .open) ?? SQLiteErrors.other(error, path: path, operation: .open)
        }
        let setUp = SQLiteDB(writer: queue, path: path, isInMemory: true)
        var applied: [String] = []
        if let migrator {
            applied = try setUp.migrate(with: migrator)
        }
        try setUp.prepareKeyValueTable()
        if options.readOnly {
            do {
                try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
            } catch {
                throw SQLiteErrors.openError(from: error, path: path)
            }
        }
        return SQLiteDB(
            writer: queue, path: path, isInMemory: true, isReadOnly: options.readOnly, migrationsAppliedOnOpen: applied)
    }

    // MARK: - Async completions

    /// The number of async completions handed to their queue or executor
    /// that have not finished running yet.
    public var pendingAsyncCompletionCount: Int {
        engine.scope.pendingAsyncCompletionCount
    }

    /// Suspends until every async completion scheduled so far has run.
    public func waitForAsyncCompletions() async {
        await engine.scope.waitForAsyncCompletions()
    }

    /// The database's scope, for commit observation.
    package var databaseScope: DatabaseScope { engine.scope }

    // MARK: - DB

    /// Runs `block` in a read transaction. See `DB.read`.
    public func read<T>(_ block: (DBReadTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try engine.read(at: CallSite(file: file, line: line), block)
    }

    /// Runs `block` in a write transaction. See `DB.write`.
    public func write<T>(_ block: (DBWriteTransaction) throws -> T, file: StaticString, line: UInt) throws -> T {
        try engine.write(at: CallSite(file: file, line: line), block)
    }

    /// Runs `block` in a read transaction on a reader queue, asynchronously.
    public func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.read(at: CallSite(file: file, line: line), block)
    }

    /// Runs `block` in a write transaction on the writer queue, asynchronously.
    public func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.write(at: CallSite(file: file, line: line), block)
    }
}
