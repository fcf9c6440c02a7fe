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
    /// **Lifetime:** the pool stays the application's: ``close()`` ends this
    /// `SQLiteDB` (its transactions throw ``/TransactionKit/DBError/Kind-swift.enum/closed``,
    /// its own read-only connections close) and never closes the pool.
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
    }
}
