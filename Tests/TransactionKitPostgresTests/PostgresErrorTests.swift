#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport
import TransactionKitTesting

/// Server errors mapped to TransactionKit's errors, from real failures.
@Suite("PostgresDB errors", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresErrorTests {
    @Test func integrityViolationsAreConstraintErrorsNamingTableColumnsAndConstraint() async throws {
        let db = try await PostgresTestServer.open()
        let parent = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")
        let child = try await PostgresTestServer.makeTable(
            db,
            "id INT PRIMARY KEY, email TEXT NOT NULL UNIQUE, age INT CHECK (age >= 0), "
                + "parent INT REFERENCES \(parent)(id)")
        try await db.write { tx in
            try await PostgresTestServer.execute("INSERT INTO \(parent) VALUES (1)", tx)
            try await PostgresTestServer.execute("INSERT INTO \(child) VALUES (1, 'secret@example.com', 1, 1)", tx)
        }
        let cases: [(String, DBConstraintViolation.Kind, [String])] = [
            ("INSERT INTO \(child) VALUES (2, 'secret@example.com', 1, 1)", .unique, ["email"]),
            ("INSERT INTO \(child) VALUES (1, 'other@example.com', 1, 1)", .primaryKey, ["id"]),
            ("INSERT INTO \(child) VALUES (3, 'third@example.com', 1, 99)", .foreignKey, ["parent"]),
            ("INSERT INTO \(child) VALUES (4, NULL, 1, 1)", .notNull, ["email"]),
            ("INSERT INTO \(child) VALUES (5, 'fifth@example.com', -1, 1)", .check, []),
        ]
        for (sql, kind, columns) in cases {
            let error = await #expect(throws: DBConstraintViolation.self) {
                try await db.write { tx in try await PostgresTestServer.execute(sql, tx) }
            }
            #expect(error?.kind == kind, "\(sql)")
            #expect(error?.table == child)
            #expect(error?.columns == columns, "\(sql)")
            // PostgreSQL names every constraint but NOT NULL.
            #expect((error?.constraint != nil) == (kind != .notNull), "\(sql)")
            #expect(error?.path == db.path)
            let description = error.map(String.init(describing:)) ?? ""
            #expect(!description.contains("secret@example.com"), "the row's values stay out of the message")
            #expect(!description.contains("txkit-"), "the password stays out")
        }
        // Nothing of the failed writes was kept.
        let count = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM \(child)", tx) }
        #expect(count == 1)
        await db.close()
    }

    /// Write skew at the serializable level: each transaction reads what
    /// the other writes. Without retries one of them fails as a conflict;
    /// with retries both commit.
    @Test(arguments: [0, 3])
    func serializationFailuresAreConflictsAndAreRetried(retries: Int) async throws {
        let db = try await PostgresTestServer.open { $0.conflictRetries = retries }
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY, on_call BOOLEAN NOT NULL")
        try await db.write { tx in
            try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1, true), (2, true)", tx)
        }
        let bothRead = TwoPartyBarrier()
        let attempts = Counter()
        func goOffCall(_ id: Int) async throws {
            try await db.write { tx in
                let attempt = attempts.increment()
                let onCall = try await PostgresTestServer.integer(
                    "SELECT count(*) FROM \(table) WHERE on_call", tx)
                if attempt <= 2 { await bothRead.arrive() }
                if onCall == 2 {
                    try await PostgresTestServer.execute("UPDATE \(table) SET on_call = false WHERE id = \(id)", tx)
                }
            }
        }
        async let first: Void = goOffCall(1)
        async let second: Void = goOffCall(2)
        var failures: [DBError] = []
        do { try await first } catch let error as DBError { failures.append(error) }
        do { try await second } catch let error as DBError { failures.append(error) }
        if retries == 0 {
            try #require(failures.count == 1)
            #expect(failures[0].kind == .conflict)
            #expect(failures[0].sqlState == "40001")
        } else {
            #expect(failures.isEmpty)
            #expect(attempts.value == 3, "the loser ran once more")
        }
        let onCall = try await db.read { tx in
            try await PostgresTestServer.integer("SELECT count(*) FROM \(table) WHERE on_call", tx)
        }
        #expect(onCall == 1, "serializable: someone stays on call")
        await db.close()
    }

    @Test func aWriteInsideAReadIsARejectedReadOnlyError() async throws {
        let db = try await PostgresTestServer.open()
        let table = try await PostgresTestServer.makeTable(db, "id INT")
        let error = await #expect(throws: DBError.self) {
            try await db.read { tx in try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx) }
        }
        #expect(error?.kind == .readOnly)
        #expect(error?.sqlState == "25006")
        await db.close()
    }

    /// A block that catches a failed statement and returns: PostgreSQL has
    /// aborted the transaction, answers `COMMIT` with `ROLLBACK`, and the
    /// write must fail rather than report a commit.
    @Test func aWriteWhoseFailedStatementWasSwallowedFailsAndCommitsNothing() async throws {
        let db = try await PostgresTestServer.open()
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")
        let completions = Counter()
        let error = await #expect(throws: DBError.self) {
            try await db.write { tx in
                tx.addSyncCompletion { completions.increment() }
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
                _ = try? await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
            }
        }
        #expect(error?.operation == .commit)
        #expect(error?.isOutcomeUnknown == false)
        #expect(completions.value == 0)
        let count = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM \(table)", tx) }
        #expect(count == 0)
        await db.close()
    }

    @Test func aWrongPasswordFailsAtOpenNamingHostAndDatabaseButNotThePassword() async throws {
        var configuration = try PostgresTestServer.configuration()
        configuration.password = "not-the-password-\(UUID().uuidString)"
        let error = await #expect(throws: DBError.self) {
            _ = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
        }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.operation == .open)
        #expect(error?.sqlState == "28P01")
        let description = error.map(String.init(describing:)) ?? ""
        #expect(description.contains(configuration.database))
        #expect(!description.contains(configuration.password!))
    }

    @Test func anUnknownDatabaseOrAClosedPortFailsAtOpen() async throws {
        var unknown = try PostgresTestServer.configuration()
        unknown.database = "no_such_database"
        let missing = await #expect(throws: DBError.self) {
            _ = try await PostgresDB.open(unknown, logger: PostgresTestServer.logger)
        }
        #expect(missing?.kind == .connectionFailed)
        #expect(missing?.sqlState == "3D000")
        #expect(missing?.path.hasSuffix("/no_such_database") == true)

        var closedPort = try PostgresTestServer.configuration()
        closedPort.endpoint = .tcp(host: "127.0.0.1", port: 1)
        let refused = await #expect(throws: DBError.self) {
            _ = try await PostgresDB.open(closedPort, logger: PostgresTestServer.logger)
        }
        #expect(refused?.kind == .connectionFailed)
        #expect(refused?.path.contains("127.0.0.1:1/") == true)
    }

    @Test func aMockTransactionThroughTheBridgeIsAMisuse() async throws {
        let db = MockDB()
        let thrown = Counter()
        await withKnownIssue {
            do {
                let read: @Sendable (DBReadTransaction) async throws -> Void = { tx in
                    _ = try PostgresDB.shimOnlyBridge(tx)
                }
                try await (db as any AsyncDB).read(read)
            } catch {
                #expect(error is DBMisuseError)
                thrown.increment()
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("PostgresDB.shimOnlyBridge received a transaction that came from a MockDB") }
        }
        #expect(thrown.value == 1)
    }
}

/// Two tasks wait for each other once.
final class TwoPartyBarrier: Sendable {
    private let first = AsyncStream<Void>.makeStream()
    private let second = AsyncStream<Void>.makeStream()
    private let arrivals = Counter()

    func arrive() async {
        if arrivals.increment() == 1 {
            first.continuation.yield()
            for await _ in second.stream { return }
        } else {
            second.continuation.yield()
            for await _ in first.stream { return }
        }
    }
}

/// A counter shared between tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
#endif
