#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Damaged and foreign files, and a table locked by the same connection,
/// caused for real.
extension SQLiteFaultTests {
    /// ``migrator`` plus an index on `item.name`.
    static var indexedMigrator: DatabaseMigrator {
        var migrator = migrator
        migrator.registerMigration("v2 index") { db in
            try db.execute(sql: "CREATE INDEX item_name ON item(name)")
        }
        return migrator
    }

    /// The names committed, read from the table itself, never through an
    /// index (which may be the damaged part).
    static func namesFromTable(_ db: SQLiteDB) throws -> [String] {
        try db.read { tx in
            try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item NOT INDEXED ORDER BY id")
        }
    }

    /// A database with ``committedBefore`` and a damaged `item_name` index.
    static func databaseWithDamagedIndex(in directory: TemporaryDirectory, name: String) throws -> String {
        let path = directory.path(name)
        do {
            let db = try SQLiteDB(path: path, migrator: indexedMigrator)
            try commitBefore(db)
            try db.close()
        }
        try IndexDamage.damage(index: "item_name", in: path)
        return path
    }

    /// Copies the rows of the damaged database at `path`, read from the
    /// tables without any index, into a new database (the advice of
    /// `.corrupt`: recover what is readable into a new file), and checks
    /// that the copy holds everything committed and is sound.
    static func expectRecoverable(_ path: String, in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let copy = directory.path("recovered-\(UUID().uuidString).sqlite")
        try SQLiteDB(path: copy, migrator: indexedMigrator).close()
        let connection = try RawSQLiteConnection(copy)
        try connection.execute("""
            ATTACH '\(path)' AS damaged;
            INSERT INTO item SELECT * FROM damaged.item NOT INDEXED WHERE 1; -- a WHERE clause: row by row, no copy of index pages
            INSERT INTO audit SELECT * FROM damaged.audit;
            DETACH damaged;
            """)
        connection.close()
        try expectIntact(copy, sourceLocation: sourceLocation)
    }

    // MARK: - Corruption

    @Test func aDamagedIndexOpensFineAndFailsALaterReadAsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try Self.databaseWithDamagedIndex(in: directory, name: "damaged-index-read.sqlite")

        let db = try SQLiteDB(path: path, migrator: Self.indexedMigrator)
        let error = #expect(throws: DBError.self) {
            try db.read { tx in
                try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT id FROM item INDEXED BY item_name WHERE name = ?", arguments: ["before 2"])
            }
        }
        let description = Self.expectTyped(error, .corrupt, .read, path: path, primaryCode: .SQLITE_CORRUPT)
        #expect(!description.localizedCaseInsensitiveContains("delete"))
        print("damaged index, found by a read: \(description)")
        // The table itself is intact, and a copy rebuilt from it is sound.
        #expect(try Self.namesFromTable(db) == Self.committedBefore)
        try db.close()
        try Self.expectRecoverable(path, in: directory)
    }

    @Test func aDamagedIndexFoundDuringAWriteIsCorruptAndTheWriteLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try Self.databaseWithDamagedIndex(in: directory, name: "damaged-index-write.sqlite")

        let db = try SQLiteDB(path: path, migrator: Self.indexedMigrator)
        let error = #expect(throws: DBError.self) {
            try db.write { tx in try Self.insert("while damaged", tx) }
        }
        let description = Self.expectTyped(error, .corrupt, .write, path: path, primaryCode: .SQLITE_CORRUPT)
        print("damaged index, found by a write: \(description)")
        #expect(try Self.namesFromTable(db) == Self.committedBefore)
        try db.close()
        try Self.expectRecoverable(path, in: directory)
    }

    // MARK: - Not a database

    @Test func aTextFileIsNotADatabaseAndIsLeftByteForByteUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("settings.conf")
        let text = Data("# my settings\nname = value\ncolor = blue\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = Self.expectTyped(error, .notADatabase, .open, path: path, primaryCode: .SQLITE_NOTADB)
        #expect(!description.localizedCaseInsensitiveContains("delete"))
        #expect(!description.localizedCaseInsensitiveContains("corrupt"))
        print("text file: \(description)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o644, "the file's permissions are not touched either")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["settings.conf"])
    }

    // MARK: - Locked

    @Test func aTableLockedByAnUnfinishedStatementOfTheSameConnectionIsLocked() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("locked-table.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.commitBefore(db)

        let error = #expect(throws: DBError.self) {
            try db.write { tx in
                let connection = try SQLiteDB.shimOnlyBridge(tx)
                try Self.insert("rolled back", tx)
                let rows = try Row.fetchCursor(connection, sql: "SELECT name FROM item")
                _ = try rows.next()
                // The SELECT is still running: SQLite refuses to drop a table.
                try connection.execute(sql: "DROP TABLE audit")
            }
        }
        let description = Self.expectTyped(error, .locked, .write, path: path, primaryCode: .SQLITE_LOCKED)
        #expect(!description.contains("Another connection or process"))
        print("table locked by the same connection: \(description)")
        #expect(try Self.names(db) == Self.committedBefore)
        try Self.expectIntact(path)
    }
}
