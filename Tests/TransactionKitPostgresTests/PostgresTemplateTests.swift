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
        var gone: Int?
        try await PostgresTestServer.admin { connection in
            let rows = try await connection.query(
                "SELECT count(*) FROM pg_database WHERE datname = \(name)", logger: PostgresTestServer.logger)
            for try await count in rows.decode(Int.self) { gone = count }
        }
        #expect(gone == 0)
    }
}
#endif
