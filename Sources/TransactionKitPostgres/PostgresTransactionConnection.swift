#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// A PostgreSQL connection inside one transaction, as
/// ``PostgresDB/shimOnlyBridge(_:file:line:)`` hands it to a finder.
///
/// ```swift
/// let connection = try PostgresDB.shimOnlyBridge(tx)
/// let rows = try await connection.query("SELECT body FROM message WHERE id = \(id)")
/// for try await body in rows.decode(String.self) { … }
/// ```
///
/// Its `query` methods are postgres-nio's, with two differences: the
/// logger is optional (the database's logger by default), and a query on a
/// connection the server closes fails as soon as it closes, as
/// ``/TransactionKit/DBError`` of kind `connectionFailed`, instead of
/// waiting forever (postgres-nio 1.33 never completes a query written to a
/// connection that has just closed).
///
/// **Lifetime:** valid until the transaction's block returns; never store
/// it. Do not run `BEGIN`, `COMMIT` or `ROLLBACK` on it.
public final class PostgresTransactionConnection: Sendable {
    /// postgres-nio's connection, for what this type does not forward
    /// (prepared statements, `LISTEN`). Queries sent directly on it after
    /// the server closed the connection do not fail; prefer ``query(_:logger:file:line:)``.
    public let connection: PostgresConnection

    /// The logger queries use when the call gives none: the database's.
    public let logger: Logger

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Runs a query inside the transaction and returns its rows.
    ///
    /// - Parameters:
    ///   - query: The SQL, with its values bound by string interpolation
    ///     (`"… WHERE id = \(id)"` sends `id` as a parameter, never as SQL).
    ///   - logger: Where postgres-nio logs the query; the database's logger
    ///     when `nil`.
    ///   - file: The call site's file, which postgres-nio records in the
    ///     `PSQLError` of a failed query; leave the default.
    ///   - line: The call site's line, recorded the same way; leave the
    ///     default.
    /// - Returns: The rows, to iterate (or decode) before the next query.
    /// - Throws: `PSQLError` from the server (``PostgresDB`` maps it when it
    ///   leaves the transaction block), or ``/TransactionKit/DBError`` of
    ///   kind `connectionFailed` when the connection is closed.
    @discardableResult
    public func query(
        _ query: PostgresQuery,
        logger: Logger? = nil,
        file: String = #fileID,
        line: Int = #line
    ) async throws -> PostgresRowSequence {
        try await connection.queryUnlessClosed(query, logger: logger ?? self.logger, file: file, line: line)
    }
}

/// The connection closed before a query on it was answered (or before it
/// was sent).
struct PostgresConnectionClosed: Error {}
#endif
