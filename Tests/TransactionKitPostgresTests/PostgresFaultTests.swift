#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// Faults against a real server (a private one per test, see
/// Scripts/postgres-control.sh): down before open, down in the middle of a
/// transaction, restarted, a wrong password, a cancelled wait. Each test
/// checks what failed and why (the typed error, its cause, what it says of
/// the transaction), never how long it took: that depends on the machine's
/// load, and `txkit-bench pg-faults` measures it. That `open` fails after
/// one attempt is PostgresOpenAttemptTests'.
@Suite(
    "PostgresDB faults",
    .enabled(if: PostgresTestServer.url != nil && postgresControl != nil, PostgresTestServer.skipReason))
struct PostgresFaultTests {
    /// The default connect timeout: room for a connection to a server that
    /// answers, however loaded the machine; a transaction waits that long
    /// for the pool during an outage.
    static let connectTimeout: Duration = .seconds(10)

    func configuration(_ url: String, password: String? = nil) throws -> PostgresDB.Configuration {
        var configuration = try PostgresDB.Configuration(url: url)
        configuration.connectTimeout = Self.connectTimeout
        configuration.conflictRetries = 0
        if let password { configuration.password = password }
        return configuration
    }

    /// Runs `body` and returns the `DBError` it threw.
    func failure(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async throws -> DBError {
        var thrown: (any Error)?
        do {
            try await body()
        } catch {
            thrown = error
        }
        return try #require(thrown as? DBError, "\(what): \(String(describing: thrown))", sourceLocation: sourceLocation)
    }

    /// The errors of the first two transactions of `db`, made without
    /// open(), when the server cannot be used. The first waits for the pool
    /// until the timeout, then looks for the cause with one direct
    /// connection for at most 0.8 s, which a loaded machine may not give it
    /// (the cause is not checked). The second first checks with one direct
    /// connection, given the whole timeout, and fails with the cause.
    func firstTwoWrites(_ db: PostgresDB) async throws -> (timedOut: DBError, checked: DBError) {
        var errors: [DBError] = []
        for attempt in 1...2 {
            let error = try await failure("write \(attempt)") {
                try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
            }
            #expect(error.kind == .connectionFailed, "\(error)")
            #expect(error.operation == .write)
            #expect(error.description.contains("No transaction began"), "\(error)")
            #expect(!error.description.contains("rolled back"), "\(error)")
            errors.append(error)
        }
        return (errors[0], errors[1])
    }

    @Test func aServerDownBeforeOpenFailsWithTheRefusal() async throws {
        let server = try PrivatePostgresServer(name: "down-\(UUID().uuidString.prefix(8))")
        let settings = try configuration(try await server.start())
        try await server.stop()

        let opening = try await failure("open") {
            _ = try await PostgresDB.open(settings, logger: PostgresTestServer.logger)
        }
        #expect(opening.kind == .connectionFailed)
        #expect(opening.operation == .open)
        #expect(opening.description.contains("Connection refused"), "\(opening)")
        #expect(!opening.description.contains("rolled back"))

        let db = PostgresDB(configuration: settings, logger: PostgresTestServer.logger)
        let writing = try await firstTwoWrites(db).checked
        #expect(writing.description.contains("Connection refused"), "\(writing)")
        await db.close()
    }

    @Test func afterARestartTheNextTransactionSucceeds() async throws {
        let server = try PrivatePostgresServer(name: "restart-\(UUID().uuidString.prefix(8))")
        let db = try await PostgresDB.open(try configuration(try await server.start()), logger: PostgresTestServer.logger)
        try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }

        try await server.stop()
        // Long enough an outage for the pool to back off between attempts.
        for attempt in 1...3 {
            let error = try await failure("write during the outage, \(attempt)") {
                try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
            }
            #expect(error.kind == .connectionFailed)
        }
        _ = try await server.start()

        // The first transaction after the restart commits.
        let value = try await db.read { tx in try await PostgresTestServer.integer("SELECT 42", tx) }
        #expect(value == 42)
        await db.close()
        try await server.stop()
    }

    @Test func aServerDownInTheMiddleOfATransactionFailsItWithoutACommit() async throws {
        let server = try PrivatePostgresServer(name: "mid-\(UUID().uuidString.prefix(8))")
        let db = try await PostgresDB.open(try configuration(try await server.start()), logger: PostgresTestServer.logger)
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
        try await server.stop()
        resume.continuation.yield()
        let error = try await failure("the suspended write") { try await write.value }
        #expect(error.kind == .connectionFailed)
        #expect(error.operation == .write)
        #expect(error.description.contains("Nothing of the transaction was committed"), "\(error)")

        _ = try await server.start()
        let rows = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM \(table)", tx) }
        #expect(rows == 0)
        await db.close()
        try await server.stop()
    }

    @Test func aWrongPasswordIsReportedAsRefusedCredentials() async throws {
        let server = try PrivatePostgresServer(name: "password-\(UUID().uuidString.prefix(8))")
        let settings = try configuration(try await server.start(), password: "not-the-password")

        let opening = try await failure("open") {
            _ = try await PostgresDB.open(settings, logger: PostgresTestServer.logger)
        }
        #expect(opening.kind == .connectionFailed)
        #expect(opening.description.hasPrefix("the server refused the credentials"), "\(opening)")
        #expect(!opening.description.contains("not-the-password"))

        let db = PostgresDB(configuration: settings, logger: PostgresTestServer.logger)
        let writes = try await firstTwoWrites(db)
        #expect(writes.checked.description.hasPrefix("the server refused the credentials"), "\(writes.checked)")
        #expect(writes.checked.sqlState == "28P01")
        for error in [writes.timedOut, writes.checked] {
            #expect(!error.description.contains("not-the-password"))
        }
        await db.close()
        try await server.stop()
    }

    /// A task cancelled while it waits for a connection stops waiting: it
    /// throws `CancellationError` (a wait that ran to the timeout would
    /// throw a `DBError`), long before the hour-long connect timeout, so
    /// within the suite's time limit.
    @Test func aCancelledTaskStopsWaiting() async throws {
        let server = try PrivatePostgresServer(name: "cancel-\(UUID().uuidString.prefix(8))")
        var settings = try configuration(try await server.start())
        try await server.stop()
        settings.connectTimeout = .seconds(3600)
        let db = PostgresDB(configuration: settings, logger: PostgresTestServer.logger)
        let write = Task {
            try await db.write { tx in try await PostgresTestServer.execute("SELECT 1", tx) }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        write.cancel()
        await #expect(throws: CancellationError.self) { try await write.value }
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
