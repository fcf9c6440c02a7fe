import GRDB
import TransactionKit
import TransactionKitSQLite

/// A finder the behaviour suite writes table rows through, so that commit
/// observation of tables runs on every backend: real SQL on `SQLiteDB`, a
/// mock that declares its change on `MockDB`.
protocol MessageFinding: Sendable {
    /// Inserts a row with `text` into `table` (one of ``TestSchema/tables``).
    func insert(_ text: String, into table: String, _ tx: DBWriteTransaction) throws
    /// Reads `table` (its row count), for value observation.
    func count(in table: String, _ tx: DBReadTransaction) throws -> Int
}

/// The schema of the suite's SQLite databases: a few plain tables.
enum TestSchema {
    /// `message`, `audit`, and `t0`…`t7` (for commit-order tests).
    static let tables = ["message", "audit"] + (0..<8).map { "t\($0)" }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("tables") { db in
            for table in tables {
                try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            }
        }
        return migrator
    }
}

/// The real finder: SQL through `SQLiteDB.shimOnlyBridge`, no declaration
/// (SQLite reports the changed table itself).
struct SQLiteMessageFinder: MessageFinding {
    func insert(_ text: String, into table: String, _ tx: DBWriteTransaction) throws {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        try db.execute(sql: "INSERT INTO \(table) (text) VALUES (?)", arguments: [text])
    }

    func count(in table: String, _ tx: DBReadTransaction) throws -> Int {
        try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }
}

/// The mock: stores nothing, declares the change (the one line a finder
/// mock adds for commit observers).
struct MockMessageFinder: MessageFinding {
    func insert(_ text: String, into table: String, _ tx: DBWriteTransaction) throws {
        tx.declareChange(table: table)
    }

    /// Declares the read; a mock has no rows to count.
    func count(in table: String, _ tx: DBReadTransaction) throws -> Int {
        tx.declareRead(table: table)
        return 0
    }
}
