import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting
import TransactionKitTestSupport

/// GRDB's escape hatches on `SQLiteDB.Options`: preparing every connection,
/// read-only opens, and `close()`; on a file and in memory.
@Suite("SQLiteDB options and close", .serialized)
struct SQLiteOptionsTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        return migrator
    }

    /// Options that register `shout(x)` on every connection and count the
    /// connections they prepared.
    static func shoutingOptions(_ prepared: Counter) -> SQLiteDB.Options {
        var options = SQLiteDB.Options()
        options.prepareDatabase { db in
            prepared.increment()
            db.add(function: DatabaseFunction("shout", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map { $0.uppercased() + "!" }
            })
        }
        return options
    }

    static func insert(_ name: String, into db: SQLiteDB) throws {
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES (shout(?))", arguments: [name])
        }
    }

    static func names(_ db: SQLiteDB) throws -> [String] {
        try db.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item ORDER BY id") }
    }

    // MARK: - Preparing connections

    @Test func everyConnectionOfAFileDatabaseIsPrepared() async throws {
        let directory = try TemporaryDirectory()
        let prepared = Counter()
        let db = try SQLiteDB(path: directory.path("db.sqlite"), migrator: Self.migrator, options: Self.shoutingOptions(prepared))
        try Self.insert("hello", into: db)
        // Readers open lazily: three reads held open at once need three of them.
        let started = Counter()
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await db.read { tx in
                        started.increment()
                        // Keep this reader busy until all three have started.
                        while started.value < 3 { usleep(1_000) }
                        return try String.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT shout(name) FROM item")
                    }
                }
            }
            for try await value in group {
                #expect(value == "HELLO!!")
            }
        }
        #expect(prepared.value >= 4, "the writer and three readers, each prepared once (\(prepared.value))")
    }

    @Test func anInMemoryDatabaseAndTemplateCopiesArePrepared() throws {
        let prepared = Counter()
        let options = Self.shoutingOptions(prepared)
        let db = try SQLiteDB.inMemory(migrator: Self.migrator, options: options)
        try Self.insert("memory", into: db)
        #expect(try Self.names(db) == ["MEMORY!"])
        #expect(prepared.value == 1)

        let template = SQLiteTemplate(migrator: Self.migrator, options: options)
        let copy = try template.makeDatabase()
        try Self.insert("copy", into: copy)
        #expect(try Self.names(copy) == ["COPY!"])
    }

    @Test func aPreparationThatThrowsFailsTheOpenWithItsError() throws {
        struct NoKey: Error {}
        let directory = try TemporaryDirectory()
        var options = SQLiteDB.Options()
        options.prepareDatabase { _ in throw NoKey() }
        let path = directory.path("db.sqlite")
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, options: options) }
        #expect(error?.operation == .open)
        #expect(error?.path == path)
        #expect(error?.underlyingError is NoKey)
        let memoryError = #expect(throws: DBError.self) { try SQLiteDB.inMemory(options: options) }
        #expect(memoryError?.underlyingError is NoKey)
    }

    // MARK: - Read-only

    @Test func aReadOnlyOpenReadsCommittedDataAndRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        do {
            let writable = try SQLiteDB(path: path, migrator: Self.migrator)
            try writable.write { tx in
                try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('kept')")
            }
            try writable.close()
        }
        var options = SQLiteDB.Options()
        options.readOnly = true
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        #expect(db.isReadOnly)
        #expect(try Self.names(db) == ["kept"])
        let error = #expect(throws: DBError.self) { try Self.insert("refused", into: db) }
        #expect(error?.kind == .readOnly)
        // SQL that writes through the bridge of a read transaction fails in
        // SQLite itself: the connections are opened read-only.
        #expect(throws: DatabaseError.self) {
            try db.read { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('sneaky')") }
        }
        #expect(try Self.names(db) == ["kept"])
    }

    @Test func aReadOnlyOpenNeverCreatesAFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing.sqlite")
        var options = SQLiteDB.Options()
        options.readOnly = true
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, options: options) }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.path == path)
        #expect(error?.message.contains("never creates") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aReadOnlyOpenWithPendingMigrationsFailsAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try SQLiteDB(path: path, migrator: Self.migrator).close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var newer = Self.migrator
        newer.registerMigration("v2") { db in try db.execute(sql: "CREATE TABLE tag (name TEXT)") }
        var options = SQLiteDB.Options()
        options.readOnly = true

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: newer, options: options) }
        #expect(error?.kind == .readOnly)
        #expect(error?.operation == .migrate)
        #expect(error?.message.contains("\"v2\"") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is unchanged")
        let tables = try SQLiteDB(path: path).read { tx in
            try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        // The writable first open created the key-value tables; the
        // read-only one added nothing.
        #expect(tables == ["grdb_migrations", "item", "transactionkit_key_value", "transactionkit_schema"])
    }

    @Test func aReadOnlyInMemoryDatabaseIsMigratedThenRefusesWrites() throws {
        var options = SQLiteDB.Options()
        options.readOnly = true
        let db = try SQLiteDB.inMemory(migrator: Self.migrator, options: options)
        #expect(try Self.names(db) == [])
        #expect(throws: DBError.self) {
            try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('x')") }
        }
        #expect(throws: DatabaseError.self) {
            try db.read { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('x')") }
        }
    }

    // MARK: - Close

    @Test func closeCheckpointsTheLogIntoTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: Self.shoutingOptions(Counter()))
        for index in 0..<20 {
            try Self.insert("row \(index)", into: db)
        }
        #expect(Self.size(of: path + "-wal") > 0, "commits are in the write-ahead log")
        try db.close()
        #expect(Self.size(of: path + "-wal") == 0, "the log was checkpointed (and removed) at close")
        // The main file alone holds every row.
        let copy = directory.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try Self.names(SQLiteDB(path: copy)).count == 20)
    }

    /// GRDB closes its writer before its readers; a reader closed last
    /// cannot remove the -wal file. `close()` closes the readers first.
    @Test func closeRemovesTheLogAlsoAfterReads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("read-then-close.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: Self.shoutingOptions(Counter()))
        for index in 0..<5 {
            try Self.insert("row \(index)", into: db)
        }
        #expect(try Self.names(db).count == 5)
        try db.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the log was removed at close")
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func closeOnAFullDiskReportsTheFailedCheckpointAndLosesNothing() throws {
        let directory = try TemporaryDirectory()
        let mountPoint = directory.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        try SmallFileSystem.mount(at: mountPoint, bytes: 1024 * 1024)
        defer { SmallFileSystem.unmount(mountPoint) }
        let path = mountPoint + "/db.sqlite"

        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        // About 600 KB in the log: it fits, but the checkpoint must copy the
        // same pages into the main file, and both do not fit in 1 MB.
        let big = String(repeating: "z", count: 600_000)
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [big])
        }
        let error = #expect(throws: DBError.self) { try db.close() }
        #expect(error?.kind == .diskFull)
        #expect(error?.operation == .close)
        #expect(error?.path == path)
        #expect(error?.message.contains("the final checkpoint failed") == true)
        #expect(error?.description.contains("-wal") == true)
        // Closed all the same.
        #expect(throws: DBError.self) { try db.read { _ in 1 } }
        try db.close()

        // Reopened on the same full disk: the committed row is there.
        var options = SQLiteDB.Options()
        options.readOnly = true
        let reopened = try SQLiteDB(path: path, options: options)
        #expect(try Self.names(reopened) == [big])
    }

    @Test func closeInMemoryReleasesTheDatabase() throws {
        let db = try SQLiteDB.inMemory(migrator: Self.migrator)
        try db.close()
        let error = #expect(throws: DBError.self) { try Self.names(db) }
        #expect(error?.kind == .closed)
        #expect(error?.path == "in-memory")
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = AtomicInt(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.wrappingAdd(1, ordering: .relaxed) }
}
