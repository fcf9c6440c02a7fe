#if Postgres
import Foundation
import Logging
import PostgresNIO
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// `PostgresMigrator`, each test on a database of its own.
@Suite("PostgresDB migrations", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresMigratorTests {
    /// Three migrations; the third counts its runs in a table of its own.
    static func migrator() -> PostgresMigrator {
        var migrator = PostgresMigrator()
        migrator.registerMigration("createAccount") { connection, logger in
            try await connection.query("CREATE TABLE account (id INT PRIMARY KEY)", logger: logger)
        }
        migrator.registerMigration("createRuns") { connection, logger in
            try await connection.query("CREATE TABLE runs (migration TEXT NOT NULL)", logger: logger)
        }
        migrator.registerMigration("addBalance") { connection, logger in
            try await connection.query("ALTER TABLE account ADD COLUMN balance INT NOT NULL DEFAULT 0", logger: logger)
            try await connection.query("INSERT INTO runs VALUES ('addBalance')", logger: logger)
        }
        return migrator
    }

    @Test func migrationsRunInOrderOnce() async throws {
        let configuration = try await PostgresTestServer.makeDatabase()
        let db = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
        let migrator = Self.migrator()
        #expect(try await migrator.migrate(db) == ["createAccount", "createRuns", "addBalance"])
        #expect(try await migrator.migrate(db) == [])
        #expect(try await migrator.appliedMigrations(db) == migrator.identifiers)
        let runs = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM runs", tx) }
        #expect(runs == 1)
        await db.close()
        try await PostgresTestServer.drop(configuration)
    }

    /// Four instances of a service start at once: the advisory lock lets
    /// one migrate while the others wait, then find nothing to do.
    @Test func instancesStartingAtOnceApplyEachMigrationOnce() async throws {
        let configuration = try await PostgresTestServer.makeDatabase()
        let instances = 4
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<instances {
                group.addTask {
                    let db = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
                    let applied = try await Self.migrator().migrate(db)
                    await db.close()
                    return applied
                }
            }
            return try await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(applied.filter { !$0.isEmpty } == [Self.migrator().identifiers], "one instance applied them all")
        let db = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
        let runs = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM runs", tx) }
        #expect(runs == 1)
        await db.close()
        try await PostgresTestServer.drop(configuration)
    }

    @Test func aFailingMigrationIsRolledBackAndNamedAndTheEarlierOnesStay() async throws {
        let configuration = try await PostgresTestServer.makeDatabase()
        let db = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
        var migrator = Self.migrator()
        migrator.registerMigration("broken") { connection, logger in
            try await connection.query("CREATE TABLE half (id INT)", logger: logger)
            try await connection.query("ALTER TABLE no_such_table ADD COLUMN x INT", logger: logger)
        }
        let error = await #expect(throws: DBError.self) { try await migrator.migrate(db) }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.operation == .migrate)
        #expect(error?.message.contains("\"broken\"") == true)
        #expect(error?.sqlState == "42P01")
        #expect(try await migrator.appliedMigrations(db) == ["createAccount", "createRuns", "addBalance"])
        let half = try await db.read { tx in
            try await PostgresTestServer.integer("SELECT count(*) FROM pg_tables WHERE tablename = 'half'", tx)
        }
        #expect(half == 0, "the failed migration's own changes were rolled back")
        await db.close()
        try await PostgresTestServer.drop(configuration)
    }

    @Test func aDatabaseMigratedByANewerVersionIsRefused() async throws {
        let configuration = try await PostgresTestServer.makeDatabase()
        let db = try await PostgresDB.open(configuration, logger: PostgresTestServer.logger)
        var newer = Self.migrator()
        newer.registerMigration("fromTheFuture") { _, _ in }
        try await newer.migrate(db)
        let error = await #expect(throws: DBError.self) { try await Self.migrator().migrate(db) }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.message.contains("fromTheFuture") == true)
        await db.close()
        try await PostgresTestServer.drop(configuration)
    }
}

/// Graceful shutdown.
@Suite("PostgresDB closing", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresClosingTests {
    @Test func closeWaitsForARunningTransactionThenRefusesNewOnes() async throws {
        let db = try await PostgresTestServer.open()
        let table = try await PostgresTestServer.makeTable(db, "id INT")
        let started = AsyncStream<Void>.makeStream()
        let finish = AsyncStream<Void>.makeStream()
        let running = Task {
            try await db.write { tx in
                started.continuation.yield()
                for await _ in finish.stream { break }
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
            }
        }
        for await _ in started.stream { break }
        let closed = Counter()
        let closing = Task {
            await db.close()
            closed.increment()
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(closed.value == 0, "close() waits for the running write")
        finish.continuation.yield()
        try await running.value
        await closing.value
        let error = await #expect(throws: DBError.self) {
            try await db.read { tx in try await PostgresTestServer.integer("SELECT 1", tx) }
        }
        #expect(error?.kind == .closed)
        let check = try await PostgresTestServer.open()
        let count = try await check.read { tx in
            try await PostgresTestServer.integer("SELECT count(*) FROM \(table)", tx)
        }
        #expect(count == 1, "the running write committed")
        await check.close()
    }
}
#endif
