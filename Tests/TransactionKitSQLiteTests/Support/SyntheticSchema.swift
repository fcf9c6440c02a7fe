import GRDB

/// A realistic 20-table, 30-migration schema shared by the fresh-database
/// tests and the `fresh_test_db` benchmark, so that both measure the same
/// thing.
///
/// Migrations 1–20 each create one table (`t01` … `t20`) with a primary key,
/// a handful of typed columns, a foreign key to the previous table and an
/// index. Migrations 21–30 evolve the schema the way a real application's
/// history does: added columns, extra indexes, a view, a trigger, a
/// settings table with one row, and a unique index.
///
/// Test and benchmark support, never shipped: this file is the only copy;
/// Tests/TransactionKitSQLiteTestingTests/Support and
/// Tools/Sources/txkit-bench hold symbolic links to it, because a
/// non-product target of the library package cannot be shared with the
/// tools package.
enum SyntheticSchema {
    /// The number of tables the migrator creates.
    static let tableCount = 20

    /// The number of migrations the migrator registers.
    static let migrationCount = 30

    /// The name of table `index` (1-based): `t01` … `t20`.
    static func tableName(_ index: Int) -> String {
        index < 10 ? "t0\(index)" : "t\(index)"
    }

    /// The identifiers of the migrator's migrations, in order.
    static var migrationIdentifiers: [String] {
        (1...migrationCount).map { migrationIdentifier($0) }
    }

    /// A migrator with the 30 migrations, followed by `extraMigrations`
    /// (each creates an empty table named after its identifier), which
    /// tests use to change the migrator.
    static func migrator(extraMigrations: [String] = []) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for index in 1...tableCount {
            migrator.registerMigration(migrationIdentifier(index)) { db in
                try createTable(index, in: db)
            }
        }
        for index in (tableCount + 1)...migrationCount {
            migrator.registerMigration(migrationIdentifier(index)) { db in
                try evolve(step: index - tableCount, in: db)
            }
        }
        for identifier in extraMigrations {
            migrator.registerMigration(identifier) { db in
                try db.execute(sql: "CREATE TABLE \(identifier.quotedDatabaseIdentifier) (id INTEGER PRIMARY KEY)")
            }
        }
        return migrator
    }

    private static func migrationIdentifier(_ index: Int) -> String {
        index < 10 ? "m0\(index)" : "m\(index)"
    }

    private static func createTable(_ index: Int, in db: Database) throws {
        let name = tableName(index)
        try db.create(table: name) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("score", .integer).notNull().defaults(to: 0)
            t.column("ratio", .double)
            t.column("payload", .blob)
            t.column("createdAt", .datetime).notNull().defaults(sql: "CURRENT_TIMESTAMP")
            if index > 1 {
                t.belongsTo(tableName(index - 1), onDelete: .cascade)
            }
        }
        try db.create(index: "\(name)_on_name", on: name, columns: ["name"])
    }

    private static func evolve(step: Int, in db: Database) throws {
        switch step {
        case 1...4:
            // Added columns on a few tables.
            for index in stride(from: step, through: tableCount, by: 4) {
                try db.alter(table: tableName(index)) { t in
                    t.add(column: "note\(step)", .text)
                }
            }
        case 5:
            for index in 1...tableCount {
                try db.create(index: "\(tableName(index))_on_score", on: tableName(index), columns: ["score", "createdAt"])
            }
        case 6:
            try db.execute(sql: """
                CREATE VIEW t01_summary AS
                SELECT t01.id, t01.name, COUNT(t02.id) AS childCount
                FROM t01 LEFT JOIN t02 ON t02.t01Id = t01.id
                GROUP BY t01.id
                """)
        case 7:
            try db.execute(sql: """
                CREATE TRIGGER t03_touch AFTER UPDATE OF name ON t03
                BEGIN
                    UPDATE t03 SET score = score + 1 WHERE id = NEW.id;
                END
                """)
        case 8:
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('schema', 'synthetic')")
        case 9:
            try db.create(index: "t05_unique_name", on: "t05", columns: ["name", "t04Id"], unique: true)
        default:
            try db.alter(table: "t10") { t in
                t.add(column: "archived", .boolean).notNull().defaults(to: false)
            }
        }
    }
}
