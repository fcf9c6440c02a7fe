import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting

@Suite("SQLiteTemplate")
struct SQLiteTemplateTests {
    /// One template shared by every test of the suite, the way an
    /// application's tests share theirs; Swift Testing runs these tests in
    /// parallel.
    static let shared = SQLiteTemplate(migrator: SyntheticSchema.migrator()) { tx in
        try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES ('fixture')")
    }

    @Test func aFreshDatabaseHasTheWholeSchemaAndTheFixtures() throws {
        let db = try Self.shared.makeDatabase()
        #expect(db.isInMemory)
        let (tables, applied, fixtureNames, setting, foreignKeys, integrity) = try db.read { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't%' AND name NOT LIKE 'transactionkit%' ORDER BY name"),
                try SyntheticSchema.migrator().appliedIdentifiers(database),
                try String.fetchAll(database, sql: "SELECT name FROM t01"),
                try String.fetchOne(database, sql: "SELECT value FROM setting WHERE key = 'schema'"),
                try Int.fetchOne(database, sql: "PRAGMA foreign_keys"),
                try String.fetchOne(database, sql: "PRAGMA integrity_check"))
        }
        #expect(tables == (1...SyntheticSchema.tableCount).map(SyntheticSchema.tableName))
        #expect(applied == Set(SyntheticSchema.migrationIdentifiers))
        #expect(fixtureNames == ["fixture"])
        #expect(setting == "synthetic")
        #expect(foreignKeys == 1)
        #expect(integrity == "ok")
    }

    @Test func writesInOneFreshDatabaseAreNeverVisibleInAnother() throws {
        let first = try Self.shared.makeDatabase()
        let second = try Self.shared.makeDatabase()
        try insert("only-in-first", into: first)
        try first.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "DELETE FROM t01 WHERE name = 'fixture'") }
        let third = try Self.shared.makeDatabase()
        #expect(try names(in: first) == ["only-in-first"])
        #expect(try names(in: second) == ["fixture"])
        #expect(try names(in: third) == ["fixture"], "a write never reaches the template")
    }

    /// Run in parallel with the rest of the suite (Swift Testing's default,
    /// and `swift test --parallel`): each case writes its own marker into its
    /// own database and must find that marker alone.
    @Test(arguments: 0..<16)
    func parallelTestsEachSeeOnlyTheirOwnWrites(index: Int) async throws {
        let db = try Self.shared.makeDatabase()
        let marker = "parallel-\(index)"
        try await db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES (?)", arguments: [marker])
        }
        let seen = try await db.read { tx in
            try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM t01 ORDER BY id")
        }
        #expect(seen == ["fixture", marker])
    }

    @Test func manyTasksCreatingDatabasesAtOnceBuildOneTemplateAndShareNothing() async throws {
        let template = SQLiteTemplate(migrator: SyntheticSchema.migrator())
        let taskCount = 48
        let results = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for index in 0..<taskCount {
                group.addTask {
                    let db = try template.makeDatabase()
                    try insert("task-\(index)", into: db)
                    return (index, try names(in: db))
                }
            }
            var results: [Int: [String]] = [:]
            for try await (index, seen) in group {
                results[index] = seen
            }
            return results
        }
        #expect(results.count == taskCount)
        for (index, seen) in results {
            #expect(seen == ["task-\(index)"])
        }
        #expect(template.buildCount == 1)
    }

    @Test func aChangedMigratorProducesANewTemplate() throws {
        let extraMigrations = LockedValue<[String]>([])
        let template = SQLiteTemplate(migrator: SyntheticSchema.migrator(extraMigrations: extraMigrations.withLock { $0 }))

        #expect(try tableExists("extra_a", in: template.makeDatabase()) == false)
        #expect(template.buildCount == 1)

        // A migration registered: the next database has it.
        extraMigrations.withLock { $0 = ["extra_a"] }
        let afterAdding = try template.makeDatabase()
        #expect(try tableExists("extra_a", in: afterAdding))
        #expect(template.buildCount == 2)

        // A migration renamed or reordered is a different migrator too.
        extraMigrations.withLock { $0 = ["extra_b", "extra_a"] }
        let reordered = try template.makeDatabase()
        #expect(try tableExists("extra_b", in: reordered))
        #expect(template.buildCount == 3)

        // Back to a migrator seen before: its template is reused, not rebuilt,
        // and it is not stale.
        extraMigrations.withLock { $0 = [] }
        let back = try template.makeDatabase()
        #expect(try tableExists("extra_a", in: back) == false)
        #expect(try tableExists("extra_b", in: back) == false)
        #expect(template.buildCount == 3)
    }

    @Test func fixturesRunOnceAndEachCopyOwnsItsRows() throws {
        let runs = LockedValue(0)
        let template = SQLiteTemplate(migrator: SyntheticSchema.migrator()) { tx in
            runs.withLock { $0 += 1 }
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES ('seed')")
        }
        let databases = try (0..<3).map { _ in try template.makeDatabase() }
        try databases[0].write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "UPDATE t01 SET name = 'changed'") }
        #expect(try names(in: databases[0]) == ["changed"])
        #expect(try names(in: databases[1]) == ["seed"])
        #expect(try names(in: databases[2]) == ["seed"])
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func aCopyIsARealDatabase() throws {
        let db = try Self.shared.makeDatabase()
        struct Refused: Error {}
        // A throwing write rolls back.
        #expect(throws: Refused.self) {
            try db.write { tx in
                try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES ('rolled back')")
                throw Refused()
            }
        }
        #expect(try names(in: db) == ["fixture"])
        // Foreign keys are enforced.
        #expect(throws: DBConstraintViolation.self) {
            try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t02 (name, t01Id) VALUES ('orphan', 999)") }
        }
        // The copy grows past the template's size.
        let blob = Data(repeating: 7, count: 2_000_000)
        try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t02 (name, payload) VALUES ('big', ?)", arguments: [blob]) }
        let stored = try db.read { tx in try Data.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT payload FROM t02 WHERE name = 'big'") }
        #expect(stored == blob)
        // Completions run, as on any SQLiteDB.
        let completed = LockedValue(false)
        try db.write { tx in
            tx.addSyncCompletion { completed.withLock { $0 = true } }
        }
        #expect(completed.withLock { $0 })
    }

    @Test func aCopyHasTheTemplatesSchemaObjectForObject() throws {
        let copy = try Self.shared.makeDatabase()
        let migrated = try SQLiteDB.inMemory(migrator: SyntheticSchema.migrator())
        try migrated.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES ('fixture')")
        }
        #expect(try schema(of: copy) == schema(of: migrated))
        #expect(try names(in: copy) == names(in: migrated))
        #expect(try Self.shared.imageByteCount() > 0)
    }

    @Test func aFailingMigrationIsReportedAndNotCached() throws {
        let migrator = {
            var migrator = SyntheticSchema.migrator()
            migrator.registerMigration("broken") { db in try db.execute(sql: "CREATE TABLE t01 (id INTEGER)") }
            return migrator
        }()
        let template = SQLiteTemplate(migrator: migrator)
        for _ in 0..<2 {
            let error = #expect(throws: DBError.self) { try template.makeDatabase() }
            #expect(error?.kind == .migrationFailed)
            #expect(error?.message.contains("broken") == true)
        }
        #expect(template.buildCount == 0)
    }

    @Test func failingFixturesAreReportedWithTheirError() throws {
        struct SeedFailed: Error {}
        let template = SQLiteTemplate(migrator: SyntheticSchema.migrator()) { _ in throw SeedFailed() }
        let error = #expect(throws: DBError.self) { try template.prepare() }
        #expect(error?.kind == .other)
        #expect(error?.underlyingError is SeedFailed)
        #expect(template.buildCount == 0)
    }
}

// Sync helpers, callable from async tests.

private func insert(_ name: String, into db: SQLiteDB) throws {
    try db.write { tx in
        try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES (?)", arguments: [name])
    }
}

private func names(in db: SQLiteDB) throws -> [String] {
    try db.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM t01 ORDER BY id") }
}

private func tableExists(_ table: String, in db: SQLiteDB) throws -> Bool {
    try db.read { tx in try SQLiteDB.shimOnlyBridge(tx).tableExists(table) }
}

private func schema(of db: SQLiteDB) throws -> [String] {
    try db.read { tx in
        try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
    }
}
