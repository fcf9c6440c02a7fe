import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// `migrationsAppliedOnOpen` says what this open did, not what the file
/// holds.
extension SQLiteDBTests {
    static func migrator(upTo count: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for index in 1...count {
            migrator.registerMigration("v\(index)") { db in
                try db.execute(sql: "CREATE TABLE t\(index) (id INTEGER PRIMARY KEY)")
            }
        }
        return migrator
    }

    @Test func migrationsAppliedOnOpenListsOnlyWhatThisOpenApplied() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("applied.sqlite")
        #expect(try SQLiteDB(path: path, migrator: Self.migrator(upTo: 2)).migrationsAppliedOnOpen == ["v1", "v2"])
        #expect(try SQLiteDB(path: path, migrator: Self.migrator(upTo: 2)).migrationsAppliedOnOpen == [])
        #expect(try SQLiteDB(path: path, migrator: Self.migrator(upTo: 4)).migrationsAppliedOnOpen == ["v3", "v4"])
        var readOnly = SQLiteDB.Options()
        readOnly.readOnly = true
        #expect(try SQLiteDB(path: path, migrator: Self.migrator(upTo: 4), options: readOnly).migrationsAppliedOnOpen == [])
        #expect(try SQLiteDB(path: path).migrationsAppliedOnOpen == [])
        #expect(try SQLiteDB.inMemory(migrator: Self.migrator(upTo: 3)).migrationsAppliedOnOpen == ["v1", "v2", "v3"])
    }

    /// Another connection applies `v2` between the open's decision and its
    /// run: it is not listed as applied by this open.
    @Test func migrationsAppliedByAnotherConnectionAreNotListed() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("shared.sqlite")
        try SQLiteDB(path: path, migrator: Self.migrator(upTo: 1)).close()
        let other = try SQLiteDB(path: path, migrator: Self.migrator(upTo: 2))
        #expect(other.migrationsAppliedOnOpen == ["v2"])
        #expect(try SQLiteDB(path: path, migrator: Self.migrator(upTo: 3)).migrationsAppliedOnOpen == ["v3"])
    }
}
