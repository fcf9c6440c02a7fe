import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// `checkIntegrity()` and the opt-in `quick_check` at open, on a sound file
/// and on a file whose index is damaged for real.
@Suite("SQLite integrity checks")
struct SQLiteIntegrityTests {
    @Test func aSoundDatabasePassesBothChecks() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("sound.sqlite")
        var options = SQLiteDB.Options()
        options.integrityCheckOnOpen = true
        let db = try SQLiteDB(path: path, migrator: SQLiteFaultTests.indexedMigrator, options: options)
        try SQLiteFaultTests.commitBefore(db)
        try db.checkIntegrity()
        try db.close()
        _ = try SQLiteDB(path: path, migrator: SQLiteFaultTests.indexedMigrator, options: options)
    }

    @Test func checkIntegrityReportsADamagedIndex() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try SQLiteFaultTests.databaseWithDamagedIndex(in: directory, name: "damaged.sqlite")
        // Opens fine without the option.
        let db = try SQLiteDB(path: path, migrator: SQLiteFaultTests.indexedMigrator)
        let error = #expect(throws: DBError.self) { try db.checkIntegrity() }
        let description = SQLiteFaultTests.expectTyped(error, .integrityCheckFailed, .read, path: path, primaryCode: nil)
        #expect(error?.message.contains("integrity_check found") == true, "\(description)")
        print("checkIntegrity on a damaged index: \(description)")
        #expect(try SQLiteFaultTests.namesFromTable(db) == SQLiteFaultTests.committedBefore)
    }

    @Test func quickCheckAtOpenRefusesADamagedIndex() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try SQLiteFaultTests.databaseWithDamagedIndex(in: directory, name: "damaged-open.sqlite")
        var options = SQLiteDB.Options()
        options.integrityCheckOnOpen = true
        let error = #expect(throws: DBError.self) {
            try SQLiteDB(path: path, migrator: SQLiteFaultTests.indexedMigrator, options: options)
        }
        let description = SQLiteFaultTests.expectTyped(error, .integrityCheckFailed, .open, path: path, primaryCode: nil)
        #expect(error?.message.contains("quick_check found") == true, "\(description)")
        print("quick_check at open on a damaged index: \(description)")
    }
}
