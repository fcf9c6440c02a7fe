#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// `PostgresDB.open` makes one connection attempt and, when it fails,
/// throws its cause at once: no retry, no pool, no backoff, whatever the
/// connect timeout. Attempts are counted where `open` makes them (its
/// connector) and where they arrive (a listener that counts every TCP
/// connection, a pool's included). No server needed.
@Suite("PostgresDB.open: one attempt")
struct PostgresOpenAttemptTests {
    /// Long enough that an `open` that retried until its timeout, or waited
    /// for a pool, would attempt many times (postgres-nio's pool retries
    /// after 100 ms, then 125 ms, …) or hit the suite's time limit.
    static let connectTimeout: Duration = .seconds(600)
    static let password = "the-secret-password"

    func configuration(port: Int) -> PostgresDB.Configuration {
        var configuration = PostgresDB.Configuration(
            host: "127.0.0.1", port: port, username: "txkit", password: Self.password, database: "app")
        configuration.connectTimeout = Self.connectTimeout
        return configuration
    }

    /// Opens, and returns the `DBError` thrown.
    func failedOpen(port: Int, _ connector: CountingConnector) async throws -> DBError {
        try await #require(throws: DBError.self) {
            _ = try await PostgresDB.open(
                configuration(port: port), logger: PostgresTestServer.logger, connector: connector.connector)
        }
    }

    /// The error names the operation, the host and the database, never the
    /// password.
    func expectNamed(_ error: DBError, port: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.kind == .connectionFailed, "\(error)", sourceLocation: sourceLocation)
        #expect(error.operation == .open, sourceLocation: sourceLocation)
        #expect(error.path == "postgresql://txkit@127.0.0.1:\(port)/app", sourceLocation: sourceLocation)
        #expect(error.description.contains("postgresql://txkit@127.0.0.1:\(port)/app"), sourceLocation: sourceLocation)
        #expect(!error.description.contains(Self.password), sourceLocation: sourceLocation)
        #expect(!error.description.contains("rolled back"), sourceLocation: sourceLocation)
    }

    @Test func aRefusedConnectionFailsOpenAfterOneAttempt() async throws {
        // Bound, never listening: the port refuses every connection.
        let port = try LoopbackSocket()
        defer { port.close() }
        let connector = CountingConnector()

        let error = try await failedOpen(port: port.port, connector)
        #expect(connector.attempts == 1)
        expectNamed(error, port: port.port)
        #expect(error.description.contains("Connection refused"), "\(error)")
        #expect(error.sqlState == nil)
    }

    @Test func refusedCredentialsFailOpenAfterOneConnection() async throws {
        let server = try RefusingPostgresServer(answer: .rejectCredentials)
        defer { server.stop() }
        let connector = CountingConnector()

        let error = try await failedOpen(port: server.port, connector)
        #expect(connector.attempts == 1)
        #expect(server.acceptedConnections == 1)
        expectNamed(error, port: server.port)
        #expect(error.sqlState == RefusingPostgresServer.rejectedCredentialsState)
        #expect(error.description.hasPrefix("the server refused the credentials"), "\(error)")
        try await expectNoLaterConnection(server)
    }

    @Test func aConnectionClosedAtOnceFailsOpenAfterOneConnection() async throws {
        let server = try RefusingPostgresServer(answer: .closeAtOnce)
        defer { server.stop() }
        let connector = CountingConnector()

        let error = try await failedOpen(port: server.port, connector)
        #expect(connector.attempts == 1)
        #expect(server.acceptedConnections == 1)
        expectNamed(error, port: server.port)
        try await expectNoLaterConnection(server)
    }

    /// Nothing `open` started goes on connecting after it threw: a pool
    /// left running would connect again after its first backoff (100 ms).
    /// (A machine too slow to retry within the pause lets a leak pass
    /// unseen, never fails a correct `open`.)
    func expectNoLaterConnection(
        _ server: RefusingPostgresServer, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.acceptedConnections == 1, "a connection after open threw", sourceLocation: sourceLocation)
    }
}
#endif
