import GRDB
import TransactionKitSQLite
import TransactionKitSQLiteTesting

/// The template these tests share, as an application's tests would.
enum TestDatabases {
    static let synthetic = SQLiteTemplate(migrator: SyntheticSchema.migrator()) { tx in
        try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES ('fixture')")
    }
}

func insert(_ name: String, into db: SQLiteDB) throws {
    try db.write { tx in
        try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO t01 (name) VALUES (?)", arguments: [name])
    }
}

func names(in db: SQLiteDB) throws -> [String] {
    try db.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM t01 ORDER BY id") }
}
