#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitPostgresTesting
import TransactionKitTestSupport

/// The migrated template the tests below copy: one table with one row,
/// and a key-value entry, all written by the migration.
enum TemplateTestDatabases {
    static let notes = PostgresTemplate(logger: PostgresTestServer.logger) { db in
        try await db.write { tx in
            try await PostgresTestServer.execute("CREATE TABLE note (id INT PRIMARY KEY, body TEXT NOT NULL)", tx)
            try await PostgresTestServer.execute("INSERT INTO note VALUES (1, 'from the migration')", tx)
            try KeyValueStore(collection: "meta").setInt(1, key: "version", transaction: tx)
        }
    }
}

@Suite(
    "PostgresTemplate: a fresh database per test",
    .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason),
    .freshDatabase(TemplateTestDatabases.notes))
struct PostgresTemplateTests {
    /// Each case writes the same primary key: each has a copy of its own,
    /// with the template's rows and key-value entries.
    @Test(arguments: 0..<4)
    func eachTestHasItsOwnMigratedCopy(_ index: Int) async throws {
        let db = try FreshPostgresDatabase.current
        #expect(db.configuration.database != TemplateTestDatabases.notes.templateName)
        try await db.write { tx in
            try await PostgresTestServer.execute("INSERT INTO note VALUES (2, 'test \(index)')", tx)
            try KeyValueStore(collection: "meta").setInt(index, key: "test", transaction: tx)
        }
        let (rows, version) = try await db.read { tx in
            (try await PostgresTestServer.integer("SELECT count(*) FROM note", tx),
             try KeyValueStore(collection: "meta").getInt("version", transaction: tx))
        }
        #expect(rows == 2)
        #expect(version == 1)
    }

    @Test func withDatabaseDropsTheCopy() async throws {
        let template = TemplateTestDatabases.notes
        let name = try await template.withDatabase { db in db.configuration.database }
        // The copy is dropped in the background; this waits for it.
        try await template.waitForSpares()
        #expect(try await Self.existing([name]).isEmpty)
    }

    /// Copies asked for at once, more than the spares: each is its own
    /// database (PostgreSQL refuses two copies of one template at the same
    /// moment; the worker makes them one after the other).
    @Test func concurrentRequestsGetDistinctCopies() async throws {
        let template = PostgresTemplate(logger: PostgresTestServer.logger, spares: 1) { db in
            try await db.write { tx in try await PostgresTestServer.execute("CREATE TABLE t (id INT)", tx) }
        }
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    let db = try await template.makeDatabase()
                    let rows = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM t", tx) }
                    #expect(rows == 0)
                    try await template.drop(db)
                    return db.configuration.database
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(names).count == 5)
        try await template.dropTemplate()
        #expect(try await Self.existing(names + [template.templateName]).isEmpty)
    }

    /// The spares are made ahead, handed out first, and dropped with the
    /// template.
    @Test func sparesAreReadyAheadAndDroppedWithTheTemplate() async throws {
        let template = PostgresTemplate(logger: PostgresTestServer.logger, spares: 2) { _ in }
        try await template.waitForSpares()
        let spares = await template.spareNames()
        #expect(spares.count == 2)
        #expect(try await Self.existing(spares).count == 2)
        let db = try await template.makeDatabase()
        #expect(db.configuration.database == spares.first)
        try await template.drop(db)
        try await template.waitForSpares()
        let refilled = await template.spareNames()
        #expect(refilled.count == 2)
        try await template.dropTemplate()
        #expect(try await Self.existing(spares + refilled + [template.templateName]).isEmpty)
    }

    /// A template that never hands out a copy makes none: dropping it does
    /// not make spares first, only to drop them.
    @Test func aTemplateThatIsOnlyDroppedMakesNoCopy() async throws {
        let template = PostgresTemplate(logger: PostgresTestServer.logger, spares: 2) { _ in }
        try await template.prepare()
        try await template.dropTemplate()
        #expect(await template.copiesMade() == 0)
        #expect(try await Self.existing([template.templateName]).isEmpty)
    }

    /// Without spares, each copy is made when asked for, and none waits.
    @Test func withoutSparesEachCopyIsMadeOnDemand() async throws {
        let template = PostgresTemplate(logger: PostgresTestServer.logger, spares: 0) { _ in }
        let name = try await template.withDatabase { db in db.configuration.database }
        try await template.waitForSpares()
        #expect(await template.spareNames().isEmpty)
        try await template.dropTemplate()
        #expect(try await Self.existing([name, template.templateName]).isEmpty)
    }

    /// The names among `names` that are databases on the server.
    private static func existing(_ names: [String]) async throws -> [String] {
        var found: [String] = []
        try await PostgresTestServer.admin { connection in
            let rows = try await connection.query(
                "SELECT datname FROM pg_database WHERE datname = ANY(\(names))", logger: PostgresTestServer.logger)
            for try await name in rows.decode(String.self) { found.append(name) }
        }
        return found
    }
}
#endif
