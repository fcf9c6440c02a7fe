#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// Queries that fail when their connection closes, instead of waiting
/// forever.
///
/// postgres-nio 1.33 writes a query to its channel without a promise: when
/// the channel closed a moment before (the server was killed, the network
/// dropped), the write fails where nobody hears it and the query never
/// completes. Checking `isClosed` first leaves a window between the check
/// and the write; the PostgreSQL torture's writers fell into it about once
/// in 40 server kills and waited forever. These methods also wait for the
/// connection to close (``PostgresCloseWatch``), so they end with
/// ``PostgresConnectionClosed`` whichever comes first.
extension PostgresConnection {
    /// Runs `query` and returns its rows, or throws ``PostgresConnectionClosed``
    /// as soon as the connection closes before the rows begin.
    ///
    /// The close can win against a query the server did answer just before
    /// it closed the connection (the answer reaches the caller through a
    /// task, the close does not): use it only where a closed connection
    /// dooms the work anyway, inside a transaction before its `COMMIT`. A
    /// query that never completes leaves one suspended task behind, as
    /// postgres-nio would leave its caller.
    @discardableResult
    package func queryUnlessClosed(
        _ query: PostgresQuery,
        logger: Logger,
        file: String = #fileID,
        line: Int = #line
    ) async throws -> PostgresRowSequence {
        try checkOpen()
        let race = PostgresRace<PostgresRowSequence>()
        let token = PostgresCloseWatch.shared.watch(self) {
            race.finish(.failure(PostgresConnectionClosed()))
        }
        Task {
            let result: Result<PostgresRowSequence, any Error>
            do {
                result = .success(try await self.query(query, logger: logger, file: file, line: line))
            } catch {
                result = .failure(error)
            }
            PostgresCloseWatch.shared.unwatch(self, token)
            race.finish(result)
        }
        return try await race.value()
    }

    /// The whole result of `query`, or ``PostgresConnectionClosed`` when the
    /// connection closes first.
    ///
    /// Both are decided on the connection's event loop, in the order the
    /// server's messages arrived: a `COMMIT` the server confirmed before it
    /// closed the connection is reported as committed.
    package func resultUnlessClosed(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        guard !isClosed else {
            return eventLoop.makeFailedFuture(PostgresConnectionClosed())
        }
        let promise = eventLoop.makePromise(of: PostgresQueryResult.self)
        let token = PostgresCloseWatch.shared.watch(self) {
            promise.fail(PostgresConnectionClosed())
        }
        // A promise completed twice keeps its first result.
        self.query(query, logger: logger).whenComplete { result in
            PostgresCloseWatch.shared.unwatch(self, token)
            promise.completeWith(result)
        }
        return promise.futureResult
    }

    /// Fails at once when the connection is already closed.
    func checkOpen() throws {
        if isClosed {
            throw PostgresConnectionClosed()
        }
    }
}
#endif
