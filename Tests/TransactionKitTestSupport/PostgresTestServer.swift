import Foundation
import Testing

#if Postgres
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres
#endif

/// The PostgreSQL server of Scripts/with-postgres.sh, which every test of a
/// `PostgresDB` uses: its URL (`TXKIT_POSTGRES_URL`), databases and tables
/// of a test's own on it, and plain SQL through the bridge.
package enum PostgresTestServer {
    /// `TXKIT_POSTGRES_URL`, or `nil` when it is unset or empty: the
    /// PostgreSQL suites are then skipped, with ``skipReason``.
    package static let url: String? = {
        let url = ProcessInfo.processInfo.environment["TXKIT_POSTGRES_URL"]
        return url?.isEmpty == false ? url : nil
    }()

    /// The one line a run without a server prints.
    package static let skipReason: Comment =
        "no PostgreSQL server (TXKIT_POSTGRES_URL is not set): run Scripts/with-postgres.sh swift test --traits Postgres --filter 'Postgres|AsyncDB'"

    /// `prefix`, `_` and 16 random hexadecimal digits: a table or database
    /// name no other test uses.
    package static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    #if Postgres
    /// The tests' logger: only what is critical, so that the errors the
    /// tests cause on purpose (killed servers, conflicts) stay quiet.
    package static let logger: Logger = {
        var logger = Logger(label: "TransactionKitTests.Postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// The server's configuration, from ``url``.
    package static func configuration() throws -> PostgresDB.Configuration {
        try PostgresDB.Configuration(url: try #require(url))
    }

    /// A `PostgresDB` on the server's database, with `configure` applied.
    package static func open(_ configure: (inout PostgresDB.Configuration) -> Void = { _ in }) async throws -> PostgresDB {
        var configuration = try configuration()
        // A key-value table of its own (created by `open`), so that tests
        // sharing the server's database never see each other's values.
        configuration.keyValueTable = uniqueName("kv")
        configure(&configuration)
        return try await PostgresDB.open(configuration, logger: logger)
    }

    /// Empties the key-value table of `db` (one that ``open(_:)`` opened).
    package static func removeAllKeyValues(_ db: PostgresDB) async throws {
        try await db.write { tx in
            try await execute("DELETE FROM \(db.configuration.keyValueTable)", tx)
        }
    }

    /// A new, empty database on the server (for migrations, which need a
    /// database of their own), dropped by `drop`.
    package static func makeDatabase() async throws -> PostgresDB.Configuration {
        var configuration = try configuration()
        let name = uniqueName("txkit_test")
        try await admin { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        configuration.database = name
        return configuration
    }

    /// Drops a database `makeDatabase` made, closing its connections.
    package static func drop(_ configuration: PostgresDB.Configuration) async throws {
        try await admin { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(configuration.database) WITH (FORCE)"),
                logger: logger)
        }
    }

    /// Runs `body` on a connection of its own to the server's database.
    package static func admin(_ body: (PostgresConnection) async throws -> Void) async throws {
        let url = URLComponents(string: try #require(url))!
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: url.host!, port: url.port ?? 5432, username: url.user!, password: url.password,
                database: String(url.path.dropFirst()), tls: .disable),
            id: 1, logger: logger)
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Creates a table with a unique name from `columns`; returns the name.
    package static func makeTable(_ db: PostgresDB, _ columns: String) async throws -> String {
        let table = uniqueName("t")
        try await db.write { tx in
            _ = try await PostgresDB.shimOnlyBridge(tx).query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (\(columns))"), logger: logger)
        }
        return table
    }

    /// Runs one statement in `tx`.
    package static func execute(_ sql: String, _ tx: DBReadTransaction) async throws {
        try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// The single integer `sql` selects.
    package static func integer(_ sql: String, _ tx: DBReadTransaction) async throws -> Int? {
        let rows = try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await value in rows.decode(Int?.self) { return value }
        return nil
    }

    /// The integers `sql` selects.
    package static func integers(_ sql: String, _ tx: DBReadTransaction) async throws -> Set<Int> {
        let rows = try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql), logger: logger)
        var values: Set<Int> = []
        for try await value in rows.decode(Int.self) { values.insert(value) }
        return values
    }
    #endif
}
