import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Somebody else's SQLite file: refused, unchanged, unless adopted on
/// purpose.
@Suite("SQLite foreign databases")
struct SQLiteForeignDatabaseTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("app v1") { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        return migrator
    }

    /// Another program's database: a `user` table with a row, in
    /// rollback-journal or WAL mode.
    static func makeForeignDatabase(at path: String, wal: Bool) throws {
        let connection = try RawSQLiteConnection(path, create: true)
        if wal {
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        try connection.execute("CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO user (name) VALUES ('theirs');")
        connection.close()
    }

    static func files(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test(arguments: [false, true])
    func aForeignDatabaseIsRefusedAndLeftByteForByteUnchanged(wal: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("theirs.sqlite")
        try Self.makeForeignDatabase(at: path, wal: wal)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Self.files(in: directory) == ["theirs.sqlite"])

        for readOnly in [false, true] {
            var options = SQLiteDB.Options()
            options.readOnly = readOnly
            let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator, options: options) }
            let description = SQLiteFaultTests.expectTyped(error, .foreignDatabase, .open, path: path, primaryCode: nil)
            #expect(description.contains("adoptsForeignDatabase"))
            #expect(!description.localizedCaseInsensitiveContains("delete"))
            print("foreign database (\(wal ? "WAL" : "rollback journal"), read-only \(readOnly)): \(description)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "not one byte changed")
        #expect(try Self.files(in: directory) == ["theirs.sqlite"], "no -wal, -shm or -journal file left")
    }

    @Test func anotherGRDBAppsDatabaseIsForeign() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("other-app.sqlite")
        var other = DatabaseMigrator()
        other.registerMigration("other v1") { db in try db.execute(sql: "CREATE TABLE thing (id INTEGER PRIMARY KEY)") }
        try SQLiteDB(path: path, migrator: other).close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        #expect(error?.kind == .foreignDatabase)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func anAdoptedForeignDatabaseIsMigratedAndKeepsItsData() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("adopted.sqlite")
        try Self.makeForeignDatabase(at: path, wal: false)
        var options = SQLiteDB.Options()
        options.adoptsForeignDatabase = true
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        #expect(db.migrationsAppliedOnOpen == ["app v1"])
        let (users, journalMode) = try db.read { tx in
            let connection = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try String.fetchAll(connection, sql: "SELECT name FROM user"),
                try String.fetchOne(connection, sql: "PRAGMA journal_mode"))
        }
        #expect(users == ["theirs"])
        #expect(journalMode == "wal")
        try db.close()
        // Once adopted, it is ours: no option needed.
        #expect(try SQLiteDB(path: path, migrator: Self.migrator).migrationsAppliedOnOpen == [])
    }

    @Test func anEmptySQLiteDatabaseIsNotForeign() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("empty.sqlite")
        let connection = try RawSQLiteConnection(path, create: true)
        try connection.execute("PRAGMA user_version = 7")  // writes the header: a valid, empty database
        connection.close()
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        #expect(db.migrationsAppliedOnOpen == ["app v1"])
    }

    @Test func withoutAMigratorAnySQLiteFileOpens() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("no-migrator.sqlite")
        try Self.makeForeignDatabase(at: path, wal: false)
        let db = try SQLiteDB(path: path)
        let users = try db.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM user") }
        #expect(users == ["theirs"])
    }
}
