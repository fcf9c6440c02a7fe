import GRDB
import TransactionKit

extension SQLiteDB {
    /// Creates a database that runs on the application's own GRDB pool, so
    /// that legacy code and migrated code share one writer.
    ///
    /// ```swift
    /// let pool = try DatabasePool(path: path, configuration: appConfiguration)  // the app's, as before
    /// try AppSchema.migrator.migrate(pool)                                        // the app's migrations
    /// let db = try SQLiteDB(adopting: pool)                                       // managers get `db`
    /// ```
    ///
    /// **Transaction semantics:** writes run on the pool's writer connection,
    /// serialized with the application's own `pool.write` calls, so the two
    /// worlds never fail each other with busy errors. Reads run on
    /// TransactionKit's own read-only connections to the file, opened with
    /// the pool's configuration (its `prepareDatabase` included), at most
    /// the pool's `maximumReaderCount` of them, beside the pool's own
    /// readers; each sees one snapshot. TransactionKit's key-value tables
    /// are created here, in their own transaction, unless they exist or the
    /// pool is read-only. The application keeps its migrations and its
    /// configuration; nothing else in the file changes.
    ///
    /// **Observation:** while a commit observer or a live value
    /// (`db.observe`) exists, TransactionKit watches the pool's writer
    /// connection with a GRDB transaction observer, and observers hear every
    /// commit that changes what they watch: TransactionKit's writes, bridged
    /// transactions, and the application's own writes that bridge nothing
    /// (a live value is never stale after a legacy write). Meanwhile every
    /// write on the pool, the application's included, pays GRDB's
    /// observation (its broker around each statement, SQLite's update hook
    /// for each changed row; Benchmarks/README.md measures it). With no
    /// observer, nothing is installed on the pool: legacy writes cost what
    /// they cost before adoption. Writes from other processes or other
    /// connections are not heard.
    ///
    /// **Lifetime:** the pool stays the application's: ``close()`` ends this
    /// `SQLiteDB` (its transactions throw ``/TransactionKit/DBError/Kind-swift.enum/closed``,
    /// its own read-only connections close) and never closes the pool.
    ///
    /// The adopted database inherits the pool's configuration, its busy mode
    /// included: give the pool a busy timeout if other processes write the
    /// file. Close this `SQLiteDB` before the application closes the pool:
    /// its prepared statements on the writer keep GRDB from closing it.
    ///
    /// - Warning: Adopt the pool outside its transactions (at startup, after
    ///   the application's migrations). Open no second `SQLiteDB` on the
    ///   same file.
    /// - Parameter pool: The application's pool.
    /// - Throws: ``/TransactionKit/DBError`` when the key-value tables cannot
    ///   be created.
    public convenience init(adopting pool: DatabasePool) throws(DBError) {
        self.init(
            writer: pool, path: pool.path, isInMemory: false, isReadOnly: pool.configuration.readonly,
            isAdopted: true)
        if !isReadOnly {
            try prepareKeyValueTable()
        }
        SQLiteAdopters.shared.register(self)
    }

    /// Creates a database that runs on the application's own GRDB queue
    /// (a file or in memory), so that legacy code and migrated code share
    /// its one connection.
    ///
    /// ```swift
    /// let queue = try DatabaseQueue()        // the app's in-memory database
    /// let db = try SQLiteDB(adopting: queue)
    /// ```
    ///
    /// **Transaction semantics:** reads and writes run on the queue's
    /// connection, serialized with the application's own `queue.read` and
    /// `queue.write`. Otherwise as ``init(adopting:)-(DatabasePool)``.
    ///
    /// - Warning: Adopt the queue outside its transactions.
    /// - Parameter queue: The application's queue.
    /// - Throws: ``/TransactionKit/DBError`` when the key-value tables cannot
    ///   be created.
    public convenience init(adopting queue: DatabaseQueue) throws(DBError) {
        let path = queue.path
        self.init(
            writer: queue, path: path, isInMemory: path.isEmpty || path == ":memory:",
            isReadOnly: queue.configuration.readonly, isAdopted: true)
        if !isReadOnly {
            try prepareKeyValueTable()
        }
        SQLiteAdopters.shared.register(self)
    }

    /// Creates a database that runs on the application's own GRDB writer, a
    /// `DatabasePool` or a `DatabaseQueue`, for apps that keep it as an
    /// `any DatabaseWriter` (as GRDB's `AppDatabase` pattern does).
    ///
    /// ```swift
    /// let db = try SQLiteDB(adopting: appDatabase.writer)
    /// ```
    ///
    /// See ``init(adopting:)-(DatabasePool)`` and
    /// ``init(adopting:)-(DatabaseQueue)``.
    ///
    /// - Parameter writer: The application's pool or queue.
    /// - Throws: ``/TransactionKit/DBError`` of kind `.other` for a writer
    ///   that is neither (TransactionKit needs to know how it reads and
    ///   writes), or when the key-value tables cannot be created.
    public convenience init(adopting writer: any DatabaseWriter) throws(DBError) {
        if let pool = writer as? DatabasePool {
            try self.init(adopting: pool)
        } else if let queue = writer as? DatabaseQueue {
            try self.init(adopting: queue)
        } else {
            throw DBError(
                kind: .other, operation: .open, path: writer.path,
                message: "SQLiteDB(adopting:) takes a DatabasePool or a DatabaseQueue, not a \(type(of: writer))")
        }
    }
}
