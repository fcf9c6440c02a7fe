#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// Savepoints on ``PostgresDB``: `SAVEPOINT`, `RELEASE SAVEPOINT` and
/// `ROLLBACK TO SAVEPOINT` on the transaction's connection.
///
/// The async steps suspend the task for each statement; the synchronous
/// ones (the synchronous `inSavepoint`, which an async block may call)
/// block the thread for one round trip each, as ``PostgresKeyValueStorage``
/// does, and for the same reason cannot deadlock.
///
/// A statement that fails inside a transaction leaves PostgreSQL's
/// transaction aborted until it ends; `ROLLBACK TO SAVEPOINT` undoes that
/// too, so that a block that catches the error of a rolled-back savepoint
/// goes on in a usable transaction. Every savepoint has one name: they
/// nest, and each statement names the innermost.
///
/// **Errors:** mapped as the block's own server errors are (a
/// ``/TransactionKit/DBError``, a conflict included, which ``PostgresDB``
/// retries when it leaves the write block).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct PostgresSavepoints: SavepointStorage {
    let path: String
    let logger: Logger

    func perform(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) throws {
        let connection = Self.connection(transaction)
        for statement in Self.statements(step) {
            do {
                _ = try connection.resultUnlessClosed(statement, logger: logger).wait()
            } catch {
                throw PostgresErrors.map(error, during: .write, path: path)
            }
        }
    }

    func performAsync(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) async throws {
        let connection = Self.connection(transaction)
        for statement in Self.statements(step) {
            do {
                try await connection.queryUnlessClosed(statement, logger: logger)
            } catch {
                throw PostgresErrors.map(error, during: .write, path: path)
            }
        }
    }

    /// The transaction's connection: the engine checked that the
    /// transaction is active in this task, and it came from this
    /// database's scope.
    private static func connection(_ transaction: DBWriteTransaction) -> PostgresConnection {
        guard let handle = transaction.connection as? PostgresTransactionConnection else {
            preconditionFailure("TransactionKit internal error: a PostgresDB transaction without its connection")
        }
        return handle.connection
    }

    private static func statements(_ step: SavepointStep) -> [PostgresQuery] {
        switch step {
        case .begin: [begin]
        case .release: [release]
        // `ROLLBACK TO` keeps the savepoint open: `RELEASE` ends it.
        case .rollBack: [rollBack, release]
        }
    }

    private static let begin = PostgresQuery(unsafeSQL: "SAVEPOINT transactionkit")
    private static let release = PostgresQuery(unsafeSQL: "RELEASE SAVEPOINT transactionkit")
    private static let rollBack = PostgresQuery(unsafeSQL: "ROLLBACK TO SAVEPOINT transactionkit")
}
#endif
