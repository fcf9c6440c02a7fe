import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

@Suite("SQLiteDB")
struct SQLiteDBTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        }
        return migrator
    }

    @Test func aFileDatabaseUsesWALAndTheChosenDurability() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        var options = SQLiteDB.Options()
        options.durability = .normal
        let normal = try SQLiteDB(path: directory.path("normal.sqlite"), options: options)
        let full = try SQLiteDB(path: directory.path("full.sqlite"))
        let (journalMode, synchronous, foreignKeys) = try full.write { tx in
            let db = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        #expect(journalMode == "wal")
        #expect(synchronous == 2)
        #expect(foreignKeys == 1)
        let normalSynchronous = try normal.write { tx in
            try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "PRAGMA synchronous")
        }
        #expect(normalSynchronous == 1)
    }

    @Test func aNewDatabaseFileAndItsCompanionsAreOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("private.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('a')") }
        for file in [path, path + "-wal", path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let permissions = try #require(attributes[.posixPermissions] as? Int)
            #expect(permissions & 0o777 == 0o600, "\(file) has permissions \(String(permissions, radix: 8))")
        }
    }

    @Test func dataPersistsAcrossReopening() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("persist.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('kept')") }
        }
        let reopened = try SQLiteDB(path: path, migrator: Self.migrator)
        let names = try reopened.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item") }
        #expect(names == ["kept"])
    }

    @Test func twoInMemoryDatabasesNeverShareData() throws {
        let first = try SQLiteDB.inMemory(migrator: Self.migrator)
        let second = try SQLiteDB.inMemory(migrator: Self.migrator)
        try first.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('a')") }
        let count = try second.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM item") }
        #expect(count == 0)
    }

    /// Writing through a read transaction is a bug in the calling SQL, not a
    /// read-only file: GRDB's error comes through unchanged.
    @Test func aReadTransactionCannotWrite() throws {
        let db = try SQLiteDB.inMemory(migrator: Self.migrator)
        let error = #expect(throws: DatabaseError.self) {
            try db.read { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('a')") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    /// A deferred foreign key is checked at commit: the violation is an error
    /// about the data, thrown as `DBConstraintViolation`, and nothing of the
    /// write persists.
    @Test func aConstraintViolatedAtCommitIsRethrownAndRolledBack() throws {
        var migrator = Self.migrator
        migrator.registerMigration("v2 deferred") { db in
            try db.execute(sql: """
                CREATE TABLE tag (
                    id INTEGER PRIMARY KEY,
                    itemID INTEGER NOT NULL REFERENCES item(id) DEFERRABLE INITIALLY DEFERRED)
                """)
        }
        let db = try SQLiteDB.inMemory(migrator: migrator)
        nonisolated(unsafe) var completed = false
        let error = #expect(throws: DBConstraintViolation.self) {
            try db.write { tx in
                let db = try SQLiteDB.shimOnlyBridge(tx)
                try db.execute(sql: "INSERT INTO item (name) VALUES ('kept?')")
                try db.execute(sql: "INSERT INTO tag (itemID) VALUES (999)")
                tx.addSyncCompletion { completed = true }
            }
        }
        #expect(error?.kind == .foreignKey)
        #expect(error?.path == "in-memory")
        #expect((error?.underlyingError as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(!completed)
        let count = try db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM item") }
        #expect(count == 0)
    }

    @Test func constraintViolationsAreTypedWithTheirTableAndColumns() throws {
        var migrator = Self.migrator
        migrator.registerMigration("v2 constraints") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY,
                    email TEXT NOT NULL,
                    region TEXT NOT NULL,
                    balance INTEGER NOT NULL CONSTRAINT balanceIsPositive CHECK (balance >= 0),
                    UNIQUE (email, region))
                """)
        }
        let db = try SQLiteDB.inMemory(migrator: migrator)
        func violation(_ sql: String) -> DBConstraintViolation? {
            #expect(throws: DBConstraintViolation.self) {
                try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: sql) }
            }
        }
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO account VALUES (1, 'a@x', 'eu', 5)")
        }

        let unique = violation("INSERT INTO account VALUES (2, 'a@x', 'eu', 5)")
        #expect(unique?.kind == .unique)
        #expect(unique?.table == "account")
        #expect(unique?.columns == ["email", "region"])
        #expect(unique?.description.hasPrefix("unique constraint violated on account(email, region) in in-memory") == true)

        let primaryKey = violation("INSERT INTO account VALUES (1, 'b@x', 'eu', 5)")
        #expect(primaryKey?.kind == .primaryKey)
        #expect(primaryKey?.table == "account" && primaryKey?.columns == ["id"])

        let notNull = violation("INSERT INTO account (id, email, balance) VALUES (3, 'c@x', 5)")
        #expect(notNull?.kind == .notNull)
        #expect(notNull?.table == "account" && notNull?.columns == ["region"])

        let check = violation("INSERT INTO account VALUES (4, 'd@x', 'eu', -1)")
        #expect(check?.kind == .check)
        #expect(check?.constraint == "balanceIsPositive")
        #expect(check?.table == nil)

        #expect(try db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM account") } == 1)
    }

    @Test func aMissingDirectoryIsATypedErrorNamingThePath() throws {
        let path = "/nonexistent-\(UUID().uuidString)/db.sqlite"
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path) }
        #expect(error?.kind == .missingDirectory)
        #expect(error?.operation == .open)
        #expect(error?.path == path)
        #expect(error?.description.contains(path) == true)
    }

    @Test func aFailingMigrationLeavesTheLastGoodVersion() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("migrate.sqlite")
        var migrator = Self.migrator
        migrator.registerMigration("v2 broken") { db in
            try db.execute(sql: "ALTER TABLE item ADD COLUMN note TEXT")
            try db.execute(sql: "THIS IS NOT SQL")
        }
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: migrator) }
        #expect(error?.kind == .migrationFailed)
        #expect(error?.message.contains("v2 broken") == true)

        let reopened = try SQLiteDB(path: path, migrator: Self.migrator)
        let columns = try reopened.read { tx in
            try SQLiteDB.shimOnlyBridge(tx).columns(in: "item").map(\.name)
        }
        #expect(columns == ["id", "name"])
    }

    @Test func aBusyDatabaseIsATypedErrorAtTheStartOfTheWrite() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("busy.sqlite")
        var options = SQLiteDB.Options()
        options.busyTimeout = .milliseconds(50)
        let first = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        let second = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        try first.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('first')")
            let error = #expect(throws: DBError.self) {
                try second.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('second')") }
            }
            #expect(error?.kind == .busy)
            #expect(error?.path == path)
            #expect(error?.resultCode == 5)
        }
        let names = try second.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item") }
        #expect(names == ["first"])
    }

    @Test func concurrentWritersAndReadersOnAFileNeverLoseAnIncrement() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let db = try SQLiteDB(path: directory.path("counter.sqlite"))
        try await db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
        }
        let writers = 16
        let incrementsPerWriter = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<writers {
                group.addTask {
                    for _ in 0..<incrementsPerWriter {
                        try await db.write { tx in
                            let db = try SQLiteDB.shimOnlyBridge(tx)
                            let value = try Int.fetchOne(db, sql: "SELECT value FROM counter")!
                            try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                        }
                    }
                }
                group.addTask {
                    var last = 0
                    for _ in 0..<incrementsPerWriter {
                        let value = try await db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT value FROM counter")! }
                        #expect(value >= last, "a reader went back in time")
                        last = value
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try await db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT value FROM counter") }
        #expect(final == writers * incrementsPerWriter)
    }
}
