import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres
import TransactionKitPostgresTesting

/// `fresh_pg_db`: what a test pays for a fresh PostgreSQL database with the
/// full schema, the 30-migration synthetic schema's 20 tables (each with an
/// index), per strategy. One operation makes an open database and drops it:
///
/// - `create_migrate`: `CREATE DATABASE`, `PostgresDB.open`, the 30
///   migrations, `close`, `DROP DATABASE`;
/// - `template_copy`: a template without spares: `makeDatabase()` (`CREATE
///   DATABASE … TEMPLATE` of the migrated template, `PostgresDB.open`),
///   `drop(_:)` and the wait for its `DROP DATABASE`: the server's whole
///   work per copy, as when tests come faster than copies;
/// - `template_spare`: what a test waits for when a spare is ready (the
///   template keeps 4; the untimed `prepare` refills them and finishes the
///   previous drops): `makeDatabase()`, which hands out a spare the worker
///   made and opened ahead, and `drop(_:)`, which leaves closing it and the
///   `DROP DATABASE` to the worker.
struct PostgresFreshDatabaseBenchmark {
    static let entryName = "fresh_pg_db"
    let url: String

    /// Twenty tables over thirty migrations, as `SyntheticSchema` does for SQLite.
    static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator()
        for index in 0..<30 {
            migrator.registerMigration("m\(index)") { connection, logger in
                if index < 20 {
                    try await connection.query(PostgresQuery(unsafeSQL: """
                        CREATE TABLE t\(index) (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, value BIGINT NOT NULL, \
                        created_at TIMESTAMPTZ NOT NULL DEFAULT now())
                        """), logger: logger)
                } else {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "CREATE INDEX t\(index - 20)_by_name ON t\(index - 20) (name)"),
                        logger: logger)
                }
            }
        }
        return migrator
    }

    func entry() throws -> BenchEntry {
        let logger = PostgresTemplate.quietLogger
        let migrator = Self.migrator
        let template = PostgresTemplate(serverURL: url, logger: logger, spares: 0) { db in
            _ = try await migrator.migrate(db)
        }
        let spared = PostgresTemplate(serverURL: url, logger: logger, spares: 4) { db in
            _ = try await migrator.migrate(db)
        }
        // Outside the timed region: the templates are made once per process.
        try BlockingAwait.run {
            try await template.prepare()
            try await spared.waitForSpares()
        }
        // `create_migrate` as a template with one use: a new template per
        // database, which is exactly create, open, migrate (and drop).
        // Every variant's untimed `prepare` first lets the spared
        // template's worker finish, so that its background drops and
        // refills never overlap a timed sample.
        let url = url
        let settle: @Sendable () async throws -> Void = { try await spared.waitForSpares() }
        return BenchEntry(
            name: Self.entryName,
            note: "one fresh PostgreSQL database with 20 tables (30 migrations), opened and dropped: create_migrate = CREATE DATABASE + open + migrations + DROP; template_copy = PostgresTemplate without spares: makeDatabase (CREATE DATABASE … TEMPLATE + open) + drop, DROP DATABASE awaited; template_spare = what a test waits for with a spare ready: makeDatabase (a spare made and opened ahead) + drop (close and DROP left to the worker; refills untimed)",
            variants: [
                .async(name: "create_migrate", prepare: settle) { iterations in
                    for _ in 0..<iterations {
                        let single = PostgresTemplate(serverURL: url, logger: logger, spares: 0) { db in
                            _ = try await migrator.migrate(db)
                        }
                        try await single.prepare()
                        try await single.dropTemplate()
                    }
                },
                .async(name: "template_copy", prepare: settle) { iterations in
                    for _ in 0..<iterations {
                        let db = try await template.makeDatabase()
                        try await template.drop(db)
                        try await template.waitForSpares()
                    }
                },
                .async(name: "template_spare", prepare: settle) { iterations in
                    for _ in 0..<iterations {
                        let db = try await spared.makeDatabase()
                        try await spared.drop(db)
                    }
                },
            ],
            ratios: [("template_copy", "create_migrate"), ("template_spare", "create_migrate")])
    }
}
