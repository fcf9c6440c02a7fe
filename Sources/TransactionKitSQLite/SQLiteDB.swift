import GRDB
import TransactionKit

/// A ``/TransactionKit/DB`` backed by SQLite, through GRDB.swift and the system SQLite.
///
/// ```swift
/// let db = try SQLiteDB(path: "/var/lib/app/app.sqlite", migrator: AppSchema.migrator)
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
/// **Transaction semantics:** those of ``/TransactionKit/DB``. Writes begin
/// with `BEGIN IMMEDIATE`, so a busy database is reported when the write
/// begins, not halfway through it. Finders receive GRDB's `Database`: its
/// cached statements, records and schema cache work as in GRDB.
///
/// **Threads:** `Sendable`. Synchronous `read` and `write` block the calling
/// thread; their blocks run on the connections' GRDB queues. Async variants
/// suspend the caller instead.
///
/// **Errors:** opening, migrating, beginning, committing and storage faults
/// in a block (busy, full disk, read-only, corrupt, I/O) throw
/// ``/TransactionKit/DBError``, which names the path; a constraint violation,
/// in the block or at commit, ``/TransactionKit/DBConstraintViolation``.
/// Other errors of a block, other SQL errors included, are rethrown as is.
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
    let bridges: SQLiteBridges

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
            savepoints: SQLiteSavepoints(path: path),
            readTracking: SQLiteReadTracking(applicationConnection: isAdopted ? writerConnection : nil))
        let bridges = SQLiteBridges()
        self.bridges = bridges
        let changeTracking = SQLiteChangeTracking(
            writer: writer, tracker: SQLiteChangeTracker(observers: scope.commitObservers, bridges: bridges),
            observers: scope.commitObservers)
        changeTracking.activate()
        self.isAdopted = isAdopted
        self.writerConnection = writerConnection
        let readers = (writer as? DatabasePool).map { pool in
            SQLiteReaderPool(path: pool.path, writerConfiguration: pool.configuration)
        }
        self.engine = TransactionEngine(
            backend: SQLiteBackend(
                writer: writer, readers: readers, writerStatements: SQLiteWriterStatements(writer: writer),
                path: path, isReadOnly: isReadOnly, closing: SQLiteClosing(),
                changeTracking: changeTracking, isAdopted: isAdopted),
            scope: scope)
    }

    /// Opens (or creates) the database file at `path`, in WAL mode, and
    /// migrates it.
    ///
    /// ```swift
    /// let db = try SQLiteDB(path: appSupport + "/app.sqlite", migrator: AppSchema.migrator)
    /// ```
    ///
    /// **Transaction semantics:** each migration runs in its own transaction;
    /// a failure leaves the database at its last good version.
    /// ``migrationsAppliedOnOpen`` lists those this open applied. The
    /// key-value tables are created after them, on the first writable open.
    ///
    /// **Several processes** may open one file at once, even a new one (each
    /// waits within the busy timeout); each migration is applied once.
    ///
    /// **Files:** a new file, an existing empty one, or a symbolic link's
    /// missing target gets `0600` permissions; a failed open removes a file
    /// it created while still empty, and restores the permissions it changed.
    /// A path too long, in a missing directory, or not naming a regular file
    /// (a directory, `/dev/null`) fails before anything is created.
    ///
    /// **Foreign files** are left unchanged: with a migrator, a file with
    /// tables but none of its migrations fails with
    /// ``/TransactionKit/DBError/Kind/foreignDatabase`` (unless
    /// ``Options/adoptsForeignDatabase``); a file that is not an SQLite
    /// database, with ``/TransactionKit/DBError/Kind/notADatabase``.
    ///
    /// **Thread:** opens and migrates synchronously, on the calling thread.
    ///
    /// - Parameters:
    ///   - path: The database file; its directory must exist.
    ///   - migrator: Migrations to apply on open, if any. With
    ///     ``Options/readOnly``, none is applied: a pending migration fails
    ///     the open with `.readOnly`.
    ///   - options: Busy timeout, durability, reader count, read-only mode,
    ///     foreign databases, an integrity check, and connection preparation.
    /// - Throws: ``/TransactionKit/DBError`` naming `path`: `.missingDirectory`,
    ///   `.cannotOpen`, `.readOnly`, `.notADatabase`, `.foreignDatabase`,
    ///   `.corrupt`, `.busy`, `.migrationFailed` (also when the key-value
    ///   tables cannot be created), `.integrityCheckFailed`, …
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

    /// Whether the change tracker is on the writer connection: only while
    /// commit observers or live values exist. For the package's tests.
    package var isTrackingChanges: Bool { engine.backend.changeTracking.isInstalled }

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
