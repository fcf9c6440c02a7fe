#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// ``PostgresDB``'s storage for ``/TransactionKit/TransactionEngine``: one
/// pooled connection per transaction, `BEGIN` at the configured isolation
/// level, the block, then `COMMIT` (or `ROLLBACK`).
///
/// The engine owns the lifecycle (hooks, misuse checks, classification);
/// this type only talks to the server. Each transaction runs, from `BEGIN`
/// to its end, on a thread of ``PostgresTransactionThreads``, so that a
/// synchronous call of its block that waits for the server blocks that
/// thread only.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct PostgresBackend: AsyncTransactionBackend {
    let connections: PostgresConnectionSource
    let logger: Logger
    /// The address errors name (no password).
    let path: String
    let beginWrite: PostgresQuery
    let beginRead: PostgresQuery
    let lifecycle: PostgresLifecycle
    let threads: PostgresTransactionThreads

    func performAsyncRead<R: Sendable>(_ body: @Sendable (AnyObject?) async throws -> R) async throws -> R {
        try await transaction(begin: beginRead, operation: .read, body)
    }

    func performAsyncWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) async throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R {
        let value = try await transaction(begin: beginWrite, operation: .write, body)
        // Writes run side by side here: commits are reported unordered.
        onCommit(DBChanges())
        return value
    }

    /// Leases a connection and runs `body` between `BEGIN` and `COMMIT`,
    /// on a transaction thread; rolls back when `body` throws.
    private func transaction<R: Sendable>(
        begin: PostgresQuery,
        operation: DBError.Operation,
        _ body: @Sendable (AnyObject?) async throws -> R
    ) async throws -> R {
        try lifecycle.enter(operation)
        defer { lifecycle.leave() }
        return try await connections.withConnection(during: operation) { connection in
            // A thread only once a connection is leased: a task waiting
            // for one holds no thread.
            try await threads.run {
                let handle = PostgresTransactionConnection(connection: connection, logger: logger)
                try await handle.query(begin)
                let value: R
                do {
                    value = try await body(handle)
                } catch {
                    await rollBack(connection)
                    throw error
                }
                try await commit(connection)
                return value
            }
        }
    }

    /// Commits, and fails when the server rolled back instead: after an
    /// error inside the transaction (one the block caught), PostgreSQL
    /// answers `COMMIT` with the tag `ROLLBACK` and no error.
    private func commit(_ connection: PostgresConnection) async throws {
        let tag = try await connection.resultUnlessClosed(Self.commitStatement, logger: logger).get().metadata.command
        if tag != "COMMIT" {
            throw PostgresTransactionAborted()
        }
    }

    /// Rolls back after the block threw. A connection that cannot roll
    /// back is closed, so that the pool never lends a connection still
    /// inside this transaction.
    private func rollBack(_ connection: PostgresConnection) async {
        // A closed connection has nothing to roll back: the server rolled
        // the transaction back when the connection dropped.
        if connection.isClosed { return }
        do {
            try await connection.queryUnlessClosed(Self.rollbackStatement, logger: logger)
        } catch {
            try? await connection.close()
        }
    }

    private static let commitStatement = PostgresQuery(unsafeSQL: "COMMIT")
    private static let rollbackStatement = PostgresQuery(unsafeSQL: "ROLLBACK")

    // MARK: - Errors

    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error {
        PostgresErrors.map(error, during: operation, path: path)
    }

    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error {
        // The block's own errors pass through; the server's are mapped.
        PostgresErrors.isServerOrConnectionError(error)
            ? PostgresErrors.map(error, during: operation, path: path)
            : error
    }
}

struct PostgresTransactionAborted: Error {}
#endif
