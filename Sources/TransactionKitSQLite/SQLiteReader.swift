import GRDB

/// One read-only connection of ``SQLiteReaderPool``: a GRDB `DatabaseQueue`
/// opened with `SQLITE_OPEN_READONLY` on the database file, and the
/// statements that begin and end its transactions.
///
/// A read runs on the queue (`DispatchQueue.sync`, which runs the block on
/// the calling thread when the queue is idle, as it always is here: the pool
/// hands a reader to one caller at a time).
final class SQLiteReader: @unchecked Sendable {
    private let queue: DatabaseQueue
    private let statements: SQLiteTransactionStatements

    /// Opens the connection. `configuration` is read-only.
    init(path: String, configuration: Configuration) throws {
        var configuration = configuration
        let clock = SQLiteReaderTransactionClock(configuration.transactionClock)
        configuration.transactionClock = clock
        queue = try DatabaseQueue(path: path, configuration: configuration)
        statements = try queue.inDatabase { db in try SQLiteTransactionStatements(db, readerClock: clock) }
    }

    deinit {
        // Before the queue closes its connection, which SQLite refuses while
        // statements are left.
        statements.finalize()
    }

    /// Runs `body` in one read transaction.
    func read<R>(_ body: (Database) throws -> R) throws -> R {
        try queue.inDatabase { db in
            try statements.inReadTransaction(db, enforcingReadOnly: false, body)
        }
    }

    /// Runs `body` in one read transaction, on the queue, suspending the
    /// caller meanwhile.
    func read<R: Sendable>(_ body: @Sendable (Database) throws -> R) async throws -> R {
        let statements = statements
        return try await queue.unsafeRead { db in
            try statements.inReadTransaction(db, enforcingReadOnly: false, body)
        }
    }

    /// Finalizes the statements and closes the connection.
    func close() throws {
        queue.inDatabase { _ in statements.finalize() }
        try queue.close()
    }
}
