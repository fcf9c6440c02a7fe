import Foundation
import Logging
import PostgresNIO
import TransactionKitPostgres

/// Databases of their own for tests, on the server that
/// `Scripts/with-postgres.sh` starts (`TXKIT_POSTGRES_URL`).
///
/// ```swift
/// @Test(.enabled(if: FreshPostgresDatabase.isAvailable, "run Scripts/with-postgres.sh swift test …"))
/// func sendsAMessage() async throws {
///     try await FreshPostgresDatabase.with { configuration in
///         let db = try await PostgresDB.open(configuration)
///         …
///         await db.close()
///     }
/// }
/// ```
///
/// Each call creates a database with a unique name, runs the body, then
/// drops the database (closing the connections the body left open), so
/// tests that use it run in parallel without seeing each other's rows.
public enum FreshPostgresDatabase {
    /// The variable `Scripts/with-postgres.sh` exports.
    public static let environmentVariable = "TXKIT_POSTGRES_URL"

    /// The server's URL, when a server is given.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a server is given: the condition of the tests' `.enabled(if:)`.
    public static var isAvailable: Bool { serverURL != nil }

    /// A logger that only reports critical problems, for tests.
    public static let logger: Logger = {
        var logger = Logger(label: "TransactionKitTools.tests")
        logger.logLevel = .critical
        return logger
    }()

    /// Creates a new, empty database on the server, runs `body` with its
    /// configuration, and drops it, whether `body` throws or not.
    ///
    /// - Parameter body: The test, given the new database's configuration.
    /// - Returns: What `body` returns.
    /// - Throws: `MissingServer` without `TXKIT_POSTGRES_URL`; what creating
    ///   the database, `body`, or dropping it throws.
    public static func with<T>(_ body: (PostgresDB.Configuration) async throws -> T) async throws -> T {
        guard let serverURL else { throw MissingServer() }
        var configuration = try PostgresDB.Configuration(url: serverURL)
        let name = "txkit_tools_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await administer(serverURL, "CREATE DATABASE \(name)")
        configuration.database = name
        let result: T
        do {
            result = try await body(configuration)
        } catch {
            try? await administer(serverURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            throw error
        }
        try await administer(serverURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        return result
    }

    /// Runs one statement outside any transaction (`CREATE DATABASE` cannot
    /// run inside one, and every `PostgresDB` transaction begins with
    /// `BEGIN`), on a connection of its own to the server's database.
    private static func administer(_ serverURL: String, _ sql: String) async throws {
        guard let url = URLComponents(string: serverURL), let host = url.host, let user = url.user else {
            throw MissingServer()
        }
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: host, port: url.port ?? 5432, username: user, password: url.password,
                database: String(url.path.dropFirst()), tls: .disable),
            id: 1, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// `TXKIT_POSTGRES_URL` is missing or is not a TCP URL.
    public struct MissingServer: Error, CustomStringConvertible {
        public var description: String {
            "set TXKIT_POSTGRES_URL to postgresql://user:password@host:port/database "
                + "(Scripts/with-postgres.sh COMMAND does it)"
        }
    }
}
