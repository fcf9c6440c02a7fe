#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// Faults against a real server (a private one per test, see
/// Scripts/postgres-control.sh): down before open, down in the middle of a
/// transaction, restarted, a wrong password, a cancelled wait. Every time
/// limit is derived from the configured connect timeout: a transaction may
/// wait the timeout, plus up to a second to find out why it failed
/// (`PostgresConnectionSource`), plus a second of slack for the machine.
@Suite(
    "PostgresDB faults",
    .enabled(if: PostgresTestServer.url != nil && postgresControl != nil, PostgresTestServer.skipReason),
    suiteTimeLimit(minutes: 3))
struct PostgresFaultTests {
    static let connectTimeout: Duration = .seconds(2)
    /// The longest a failing transaction may take: the timeout, then at
    /// most 0.8 s to find the cause.
    static let limit: Duration = connectTimeout + .seconds(1)

    func configuration(_ url: String, password: String? = nil) throws -> PostgresDB.Configuration {
        var configuration = try PostgresDB.Configuration(url: url)
        configuration.connectTimeout = Self.connectTimeout
        configuration.conflictRetries = 0
        if let password { configuration.password = password }
        return configuration
    }

    /// Runs `body`, checks it threw a `DBError` within ``limit``, returns it.
    func failure(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async throws -> DBError {
        let clock = ContinuousClock()
        let started = clock.now
        var thrown: (any Error)?
        do {
            try await body()
        } catch {
            thrown = error
        }
        let elapsed = clock.now - started
        let error = try #require(thrown as? DBError, "\(what): \(String(describing: thrown))", sourceLocation: sourceLocation)
        #expect(elapsed <= Self.limit, "\(what) took \(elapsed), more than \(Self.limit)", sourceLocation: sourceLocation)
        print("fault: \(what) failed after \(elapsed) (connectTimeout \(Self.connectTimeout)): \(error)")
        return error
    }

    @Test func aServerDownBeforeOpenFailsWithinTheTimeout() async throws {
        let server = try PrivatePostgresServer(name: "down-\(UUID().uuidString.prefix(8))")
        let settings = try configuration(try server.start())
        try server.stop()

        let opening = try await failure("open") {
            _ = try await PostgresDB.open(settings, logger: PostgresTestServer.logger)
        }
        #expect(opening.kind == .connectionFailed)
        #expect(!opening.description.contains("rolled back"))

        // A database made without open(): its first transaction waits for
        // the pool, at most the timeout.
        let db = PostgresDB(configuration: settings, logger: PostgresTestServer.logger)
        for attempt in 1...2 {
            let writing = try await failure("write \(attempt)") {
                try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
            }
            #expect(writing.kind == .connectionFailed)
            #expect(writing.description.contains("No transaction began"), "\(writing)")
            #expect(!writing.description.contains("rolled back"), "\(writing)")
        }
        await db.close()
    }

    @Test func afterARestartTheNextTransactionSucceeds() async throws {
        let server = try PrivatePostgresServer(name: "restart-\(UUID().uuidString.prefix(8))")
        let db = try await PostgresDB.open(try configuration(try server.start()), logger: PostgresTestServer.logger)
        try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }

        try server.stop()
        // Long enough an outage for the pool to back off between attempts.
        for attempt in 1...3 {
            let error = try await failure("write during the outage, \(attempt)") {
                try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
            }
            #expect(error.kind == .connectionFailed)
        }
        _ = try server.start()

        // The first transaction after the restart commits.
        let value = try await db.read { tx in try await PostgresTestServer.integer("SELECT 42", tx) }
        #expect(value == 42)
        await db.close()
        try server.stop()
    }

    @Test func aServerDownInTheMiddleOfATransactionFailsItWithoutACommit() async throws {
        let server = try PrivatePostgresServer(name: "mid-\(UUID().uuidString.prefix(8))")
        let db = try await PostgresDB.open(try configuration(try server.start()), logger: PostgresTestServer.logger)
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")
        let inserted = AsyncStream<Void>.makeStream()
        let resume = AsyncStream<Void>.makeStream()
        let write = Task {
            try await db.write { tx in
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
                inserted.continuation.yield()
                for await _ in resume.stream { break }
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (2)", tx)
            }
        }
        for await _ in inserted.stream { break }
        try server.stop()
        resume.continuation.yield()
        let error = try await failure("the suspended write") { try await write.value }
        #expect(error.kind == .connectionFailed)
        #expect(error.operation == .write)
        #expect(error.description.contains("Nothing of the transaction was committed"), "\(error)")

        _ = try server.start()
        let rows = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM \(table)", tx) }
        #expect(rows == 0)
        await db.close()
        try server.stop()
    }

    @Test func aWrongPasswordIsReportedAsRefusedCredentials() async throws {
        let server = try PrivatePostgresServer(name: "password-\(UUID().uuidString.prefix(8))")
        let settings = try configuration(try server.start(), password: "not-the-password")

        let opening = try await failure("open") {
            _ = try await PostgresDB.open(settings, logger: PostgresTestServer.logger)
        }
        #expect(opening.kind == .connectionFailed)
        #expect(opening.description.hasPrefix("the server refused the credentials"), "\(opening)")
        #expect(!opening.description.contains("not-the-password"))

        let db = PostgresDB(configuration: settings, logger: PostgresTestServer.logger)
        let writing = try await failure("write") {
            try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
        }
        #expect(writing.description.hasPrefix("the server refused the credentials"), "\(writing)")
        #expect(!writing.description.contains("rolled back"))
        await db.close()
        try server.stop()
    }

    /// A task cancelled while it waits for a connection stops waiting at
    /// once, however long the connect timeout.
    @Test func aCancelledTaskStopsWaitingAtOnce() async throws {
        let server = try PrivatePostgresServer(name: "cancel-\(UUID().uuidString.prefix(8))")
        var settings = try configuration(try server.start())
        try server.stop()
        settings.connectTimeout = .seconds(60)
        let db = PostgresDB(configuration: settings, logger: PostgresTestServer.logger)
        let clock = ContinuousClock()
        let write = Task {
            try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let cancelled = clock.now
        write.cancel()
        await #expect(throws: CancellationError.self) { try await write.value }
        let waited = clock.now - cancelled
        #expect(waited < .seconds(10), "the cancelled wait went on for \(waited) (connect timeout 60 s)")
        await db.close()
    }

    @Test func anUnsupportedURLSchemeSaysSo() throws {
        let error = #expect(throws: DBError.self) {
            _ = try PostgresDB.Configuration(url: "mysql://user:secret@localhost/app")
        }
        #expect(error?.description.contains("not a PostgreSQL connection URL") == true, "\(String(describing: error))")
        #expect(error?.description.contains("cannot open database file") == false, "\(String(describing: error))")
        #expect(error?.description.contains("secret") == false)
    }
}
#endif
