#if Postgres
import Foundation
import Logging
import Testing
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The PostgreSQL server of Scripts/with-postgres.sh, for the `AsyncDB`
/// behaviour suite's `PostgresDB` case.
enum PostgresTestServer {
    /// `TXKIT_POSTGRES_URL`, or `nil` (the suite then runs on `MockDB` only,
    /// and `PostgresAvailabilityTests` says how to run it on the server).
    static let url: String? = ProcessInfo.processInfo.environment["TXKIT_POSTGRES_URL"]

    static let logger: Logger = {
        var logger = Logger(label: "TransactionKitTests.Postgres")
        logger.logLevel = .warning
        return logger
    }()

    /// A database on the server, and a new empty table
    /// `(key TEXT PRIMARY KEY, value BIGINT)` in it, so that tests running
    /// in parallel never share rows.
    static func makeDatabaseWithTable() async throws -> (PostgresDB, String) {
        let url = try #require(url)
        var configuration = try PostgresDB.Configuration(url: url)
        // The suite's increments collide on one row: enough retries that
        // every one of them commits.
        configuration.conflictRetries = 1_000
        configuration.maximumConnections = 8
        let db = try await PostgresDB.open(configuration, logger: logger)
        let table = "kv_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await db.write { tx in
            _ = try await PostgresDB.shimOnlyBridge(tx).query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (key TEXT PRIMARY KEY, value BIGINT NOT NULL)"),
                logger: logger)
        }
        return (db, table)
    }
}
#endif
