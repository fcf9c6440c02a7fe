import Logging
import PostgresNIO
import TransactionKitPostgres

/// What the PostgreSQL entries' shared SQL runs on: plain postgres-nio's
/// connection for the baselines, the connection `PostgresDB.shimOnlyBridge`
/// gives finders (its `query`, as a finder calls it) for `PostgresDB`.
protocol PostgresBenchQuerying {
    func benchQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence
}

extension PostgresConnection: PostgresBenchQuerying {
    func benchQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}

extension PostgresTransactionConnection: PostgresBenchQuerying {
    func benchQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await self.query(query, logger: logger)
    }
}
