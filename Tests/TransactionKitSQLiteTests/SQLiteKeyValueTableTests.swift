import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting
import TransactionKitTestSupport

/// The table behind `KeyValueStore` on `SQLiteDB`: created by the library
/// at open, readable with plain SQL, absent-but-harmless on read-only opens
/// of older files, and carried into template copies.
@Suite("SQLite key-value table")
struct SQLiteKeyValueTableTests {
    let settings = KeyValueStore(collection: "settings")

    @Test func theTableIsCreatedAtOpenWithTheDocumentedSchema() throws {
        let db = try SQLiteDB.inMemory()
        let (tables, version, columns) = try db.read { tx throws in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'transactionkit%' ORDER BY name"),
                try Int.fetchOne(database, sql: "SELECT version FROM transactionkit_schema WHERE component = 'key_value'"),
                try database.columns(in: "transactionkit_key_value").map { "\($0.name) \($0.type) \($0.isNotNull ? "NOT NULL" : "NULL") pk\($0.primaryKeyIndex)" }
            )
        }
        #expect(tables == ["transactionkit_key_value", "transactionkit_schema"])
        #expect(version == 1)
        #expect(columns == ["collection TEXT NOT NULL pk1", "key TEXT NOT NULL pk2", "value ANY NOT NULL pk0"])
    }

    @Test func valuesAreReadableWithPlainSQLInTheirNativeTypes() throws {
        let db = try SQLiteDB.inMemory()
        try db.write { tx throws in
            try settings.setString("dark", key: "theme", transaction: tx)
            try settings.setInt(14, key: "fontSize", transaction: tx)
            try settings.setBool(true, key: "badges", transaction: tx)
            try settings.setDouble(0.5, key: "volume", transaction: tx)
            try settings.setDate(Date(timeIntervalSince1970: 0), key: "since", transaction: tx)
            try settings.setData(Data([1, 2, 3]), key: "avatar", transaction: tx)
            try settings.setCodable(["b": 2, "a": 1], key: "json", transaction: tx)
        }
        let rows = try db.read { tx throws in
            try Row.fetchAll(
                SQLiteDB.shimOnlyBridge(tx),
                sql: "SELECT key, typeof(value) AS type, quote(value) AS literal FROM transactionkit_key_value WHERE collection = 'settings' ORDER BY key")
                .map { "\($0["key"] as String) \($0["type"] as String) \($0["literal"] as String)" }
        }
        #expect(rows == [
            "avatar blob X'010203'",
            "badges integer 1",
            "fontSize integer 14",
            "json text '{\"a\":1,\"b\":2}'",
            "since real 0.0",
            "theme text 'dark'",
            "volume real 0.5",
        ])
        let fromJSON = try db.read { tx throws in
            try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT value ->> '$.b' FROM transactionkit_key_value WHERE key = 'json'")
        }
        #expect(fromJSON == 2)
        let date = try db.read { tx throws in
            try String.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT datetime(value, 'unixepoch') FROM transactionkit_key_value WHERE key = 'since'")
        }
        #expect(date == "1970-01-01 00:00:00")
    }

    /// A value written with plain SQL is read by the store, and a type the
    /// store does not expect is a typed error.
    @Test func valuesWrittenWithPlainSQLAreReadByTheStore() throws {
        let db = try SQLiteDB.inMemory()
        try db.write { tx throws in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: """
                INSERT INTO transactionkit_key_value (collection, key, value)
                VALUES ('settings', 'theme', 'dark'), ('settings', 'fontSize', 'large')
                """)
        }
        try db.read { tx throws in
            #expect(try settings.getString("theme", transaction: tx) == "dark")
            let error = #expect(throws: KeyValueStoreError.self) { try settings.getInt("fontSize", transaction: tx) }
            #expect(error?.kind == .typeMismatch)
        }
    }

    /// The first writable open creates the tables; later opens only read
    /// their version (GRDB's own open-time probe, `grdb_issue_102`, aside).
    @Test func onlyTheFirstOpenCreatesTheTablesAndReopeningKeepsValues() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let first = try tracedOpen(path)
        try first.db.write { tx in try settings.setString("dark", key: "theme", transaction: tx) }
        try first.db.close()
        #expect(first.statements.contains { $0.contains("CREATE TABLE IF NOT EXISTS transactionkit_key_value") })

        let second = try tracedOpen(path)
        #expect(second.statements.contains { $0.contains("transactionkit_schema") }, "the open read the version")
        let writes = second.statements.filter {
            $0.contains("transactionkit") && ($0.contains("CREATE") || $0.contains("INSERT"))
        }
        #expect(writes == [], "all statements: \(second.statements)")
        #expect(try second.db.read { tx in try settings.getString("theme", transaction: tx) } == "dark")
    }

    /// Opens `path`, and returns the statements the open ran on any of its
    /// connections.
    private func tracedOpen(_ path: String) throws -> (db: SQLiteDB, statements: [String]) {
        let statements = LockedValue<[String]>([])
        var options = SQLiteDB.Options()
        options.prepareDatabase { db in
            db.trace(options: .statement) { event in
                statements.withLock { $0.append(event.description) }
            }
        }
        let db = try SQLiteDB(path: path, options: options)
        return (db, statements.withLock { $0 })
    }

    @Test func aReadOnlyOpenOfAFileWithoutTheTableReadsAnEmptyStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        // A file that no writable SQLiteDB ever opened.
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)") }
        var options = SQLiteDB.Options()
        options.readOnly = true
        let db = try SQLiteDB(path: path, options: options)
        try db.read { tx throws in
            #expect(try settings.getString("theme", transaction: tx) == nil)
            #expect(try settings.hasValue("theme", transaction: tx) == false)
            #expect(try settings.allKeys(transaction: tx) == [])
            #expect(try settings.count(transaction: tx) == 0)
        }
    }

    @Test func aReadOnlyOpenReadsValuesAWritableOpenCommitted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let writable = try SQLiteDB(path: path)
        try writable.write { tx in try settings.setString("dark", key: "theme", transaction: tx) }
        var options = SQLiteDB.Options()
        options.readOnly = true
        let readOnly = try SQLiteDB(path: path, options: options)
        #expect(try readOnly.read { tx in try settings.getString("theme", transaction: tx) } == "dark")
        let inMemoryReadOnly = try SQLiteDB.inMemory(options: options)
        #expect(try inMemoryReadOnly.read { tx in try settings.count(transaction: tx) } == 0)
    }

    @Test func templateCopiesHaveTheTableAndTheFixturesValues() throws {
        let template = SQLiteTemplate(migrator: DatabaseMigrator()) { tx in
            try KeyValueStore(collection: "settings").setString("dark", key: "theme", transaction: tx)
        }
        let first = try template.makeDatabase()
        let second = try template.makeDatabase()
        try first.write { tx in try settings.setString("light", key: "theme", transaction: tx) }
        #expect(try first.read { tx in try settings.getString("theme", transaction: tx) } == "light")
        #expect(try second.read { tx in try settings.getString("theme", transaction: tx) } == "dark")
    }

    /// A storage fault inside a store call is a `DBError`, as for any other
    /// statement.
    @Test func aWriteToAQueryOnlyConnectionIsADBError() throws {
        let db = try SQLiteDB.inMemory()
        try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "PRAGMA query_only = 1") }
        let error = #expect(throws: DBError.self) {
            try db.write { tx in try settings.setString("dark", key: "theme", transaction: tx) }
        }
        #expect(error?.kind == .readOnly)
    }
}
