#if Postgres
import Foundation
import Logging
import PostgresNIO
import Testing
import TransactionKit
import TransactionKitPostgres

/// Databases on the server of Scripts/with-postgres.sh.
enum PostgresFixture {
    static let logger: Logger = {
        var logger = Logger(label: "TransactionKitPostgresTests")
        logger.logLevel = .critical
        return logger
    }()

    /// The server's configuration, from `TXKIT_POSTGRES_URL`.
    static func configuration() throws -> PostgresDB.Configuration {
        try PostgresDB.Configuration(url: try #require(postgresServerURL))
    }

    /// A `PostgresDB` on the server's database, with `configure` applied.
    static func open(_ configure: (inout PostgresDB.Configuration) -> Void = { _ in }) async throws -> PostgresDB {
        var configuration = try configuration()
        configure(&configuration)
        return try await PostgresDB.open(configuration, logger: logger)
    }

    /// A new, empty database on the server (for migrations, which need a
    /// database of their own), dropped by `drop`.
    static func makeDatabase() async throws -> PostgresDB.Configuration {
        var configuration = try configuration()
        let name = uniqueName("txkit_test")
        try await admin { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        configuration.database = name
        return configuration
    }

    /// Drops a database `makeDatabase` made, closing its connections.
    static func drop(_ configuration: PostgresDB.Configuration) async throws {
        try await admin { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(configuration.database) WITH (FORCE)"),
                logger: logger)
        }
    }

    /// Runs `body` on a connection of its own to the server's database.
    static func admin(_ body: (PostgresConnection) async throws -> Void) async throws {
        let url = URLComponents(string: try #require(postgresServerURL))!
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
    static func makeTable(_ db: PostgresDB, _ columns: String) async throws -> String {
        let table = uniqueName("t")
        try await db.write { tx in
            _ = try await PostgresDB.shimOnlyBridge(tx).query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (\(columns))"), logger: logger)
        }
        return table
    }

    /// Runs one statement in `tx`.
    static func execute(_ sql: String, _ tx: DBReadTransaction) async throws {
        try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// The single integer `sql` selects.
    static func integer(_ sql: String, _ tx: DBReadTransaction) async throws -> Int? {
        let rows = try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await value in rows.decode(Int?.self) { return value }
        return nil
    }

    /// The integers `sql` selects.
    static func integers(_ sql: String, _ tx: DBReadTransaction) async throws -> Set<Int> {
        let rows = try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql), logger: logger)
        var values: Set<Int> = []
        for try await value in rows.decode(Int.self) { values.insert(value) }
        return values
    }

    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }
}
#endif
