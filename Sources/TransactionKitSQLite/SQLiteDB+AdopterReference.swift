import GRDB
import TransactionKit

extension SQLiteDB {
    /// The database that adopted the application's pool or queue, for
    /// code that receives the pool but must hand an ``/TransactionKit/DB``
    /// on: the production wiring of a migrated manager, which keeps the
    /// initializer its callers already use.
    ///
    /// ```swift
    /// // At startup, once, after the application's migrations:
    /// let db = try SQLiteDB(adopting: pool)
    ///
    /// // Wherever only the pool is at hand:
    /// extension NoteManager {
    ///     convenience init(pool: DatabasePool) {
    ///         self.init(db: SQLiteDB.adopter(of: pool))
    ///     }
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of the adopting `SQLiteDB`, which
    /// is looked up when the first transaction opens (by the identity of
    /// `writer`) and kept from then on: transactions, hooks and misuse
    /// checks are that database's, so code migrated this way and code that
    /// holds the adopting database share one writer and one set of checks.
    ///
    /// It never adopts anything itself: adoption creates TransactionKit's
    /// tables and must happen outside the application's transactions.
    ///
    /// - Parameter writer: The application's `DatabasePool` or `DatabaseQueue`.
    /// - Returns: A database whose transactions run on the adopter. While no
    ///   open `SQLiteDB` adopted `writer`, each transaction throws
    ///   ``/TransactionKit/DBError`` of kind
    ///   ``/TransactionKit/DBError/Kind-swift.enum/notAdopted`` naming the
    ///   path, and its block does not run.
    public static func adopter(of writer: any DatabaseWriter) -> any DB {
        SQLiteAdopterReference(writer: writer)
    }

    /// The database that adopted the application's pool or queue, for code
    /// that only reads and receives it as an `any DatabaseReader`: the
    /// production wiring of a migrated manager that held a reader.
    ///
    /// ```swift
    /// extension NoteReader {
    ///     convenience init(reader: any DatabaseReader) {
    ///         self.init(db: SQLiteDB.adopter(ofReader: reader))
    ///     }
    /// }
    /// ```
    ///
    /// **Transaction semantics:** reads are those of the adopting
    /// `SQLiteDB`, looked up when the first transaction opens (by the
    /// identity of `reader`, which must be the adopted pool or queue itself)
    /// and kept from then on, as ``adopter(of:)`` does. Writes are refused:
    /// the code this wiring serves could only read.
    ///
    /// - Parameter reader: The application's `DatabasePool` or
    ///   `DatabaseQueue`, held as a reader.
    /// - Returns: A database whose reads run on the adopter. While no open
    ///   `SQLiteDB` adopted `reader` (or when `reader` is not a pool or queue,
    ///   a `DatabaseSnapshot` for example), each transaction throws
    ///   ``/TransactionKit/DBError`` of kind
    ///   ``/TransactionKit/DBError/Kind-swift.enum/notAdopted`` naming the
    ///   path and, for a reader that no `SQLiteDB` can adopt, its type; each
    ///   write throws one of kind
    ///   ``/TransactionKit/DBError/Kind-swift.enum/readOnly``. Their blocks
    ///   do not run.
    public static func adopter(ofReader reader: any DatabaseReader) -> any DB {
        SQLiteAdopterReference(reader: reader)
    }
}

extension SQLiteDB {
    /// A database looked up at each transaction, for code that finds its
    /// database in a global when it runs (an app's environment) rather
    /// than receiving it once: the production wiring of such a migrated
    /// manager.
    ///
    /// ```swift
    /// extension RulesEngine {
    ///     convenience init() {
    ///         self.init(db: SQLiteDB.deferred {
    ///             guard let database = AppEnvironment.current.database else { throw AppError.notConfigured }
    ///             return database.sqlite
    ///         })
    ///     }
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of the database `lookup` returns,
    /// asked again when each transaction opens.
    ///
    /// - Parameter lookup: Returns the database to run the next transaction
    ///   on, or throws; it runs on the thread that opens the transaction,
    ///   outside any transaction.
    /// - Returns: A database whose every transaction first calls `lookup`;
    ///   an error `lookup` throws is thrown by the transaction, whose block
    ///   does not run.
    public static func deferred(_ lookup: @escaping @Sendable () throws -> SQLiteDB) -> any DB {
        SQLiteDeferredDatabase(lookup: lookup)
    }
}
