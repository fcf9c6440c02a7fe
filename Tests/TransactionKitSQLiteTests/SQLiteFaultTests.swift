#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import GRDBSQLite
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Storage faults, caused for real: each must come out as a typed `DBError`
/// naming the path and the SQLite result code, never as a crash, and the
/// data committed before the fault must stay intact and readable.
///
/// Serialized: a lock-holder child runs as an exit test, and the parent side
/// of an exit test occupies a thread of the cooperative pool until its child
/// exits. On a 2-core machine two holders at once starve the pool, so the
/// test that waits for a holder's `ready` file only resumes once the holder
/// gave up, and never sees the lock it meant to wait for.
@Suite("SQLite faults", .serialized)
struct SQLiteFaultTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "CREATE TABLE audit (id INTEGER PRIMARY KEY, item INTEGER NOT NULL)")
        }
        return migrator
    }

    static let committedBefore = ["before 1", "before 2", "before 3"]

    /// Commits ``committedBefore``, one transaction each.
    static func commitBefore(_ db: SQLiteDB) throws {
        for name in committedBefore {
            try db.write { tx in try insert(name, tx) }
        }
    }

    static func insert(_ name: String, _ tx: DBWriteTransaction) throws {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        try db.execute(sql: "INSERT INTO item (name) VALUES (?)", arguments: [name])
        try db.execute(sql: "INSERT INTO audit (item) VALUES (?)", arguments: [db.lastInsertedRowID])
    }

    static func names(_ db: SQLiteDB) throws -> [String] {
        try db.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item ORDER BY id") }
    }

    /// Reopens `path` in a fresh `SQLiteDB` and checks that the data
    /// committed before the fault is all there, and the file is sound.
    static func expectIntact(_ path: String, plus extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (names, audits, integrity) = try readBack(path)
        #expect(names == committedBefore + extra, sourceLocation: sourceLocation)
        #expect(audits == names.count, sourceLocation: sourceLocation)
        #expect(integrity == ["ok"], sourceLocation: sourceLocation)
    }

    /// Reopens `path` in a fresh `SQLiteDB` and reads the item names, the
    /// number of audit rows and `PRAGMA integrity_check`.
    static func readBack(_ path: String) throws -> (names: [String], audits: Int, integrity: [String]) {
        let db = try SQLiteDB(path: path, migrator: migrator)
        return try db.read { tx in
            let db = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit")!,
                try String.fetchAll(db, sql: "PRAGMA integrity_check"))
        }
    }

    /// Checks the parts every fault error shares, and returns its description.
    @discardableResult
    static func expectTyped(
        _ error: DBError?,
        _ kind: DBError.Kind,
        _ operation: DBError.Operation? = nil,
        path: String,
        primaryCode: ResultCode?,
        or alternative: ResultCode? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        guard let error else {
            Issue.record("no DBError", sourceLocation: sourceLocation)
            return ""
        }
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        if let operation {
            #expect(error.operation == operation, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(error.path == path, sourceLocation: sourceLocation)
        #expect(error.description.contains(path), sourceLocation: sourceLocation)
        if let primaryCode {
            let primary = error.resultCode.map { $0 & 0xFF }
            #expect(
                primary == primaryCode.rawValue || (alternative != nil && primary == alternative?.rawValue),
                "\(error)", sourceLocation: sourceLocation)
        } else {
            #expect(error.resultCode == nil, "\(error)", sourceLocation: sourceLocation)
        }
        return error.description
    }

    // MARK: - Busy

    @Test func aWriteLockHeldByAnotherProcessBeyondTheBusyTimeoutIsBusy() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("locked.sqlite")
        let ready = directory.path("holder-ready")
        let release = directory.path("holder-release")
        var options = SQLiteDB.Options()
        options.busyTimeout = .milliseconds(200)
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        try Self.commitBefore(db)

        let holder = Task {
            await #expect(processExitsWith: .success) { [path = path as String, ready = ready as String, release = release as String] in
                try LockHolder.hold(path: path, ready: ready, release: release, atMostSeconds: 60)
            }
        }
        try await LockHolder.waitForFile(ready)

        let error = #expect(throws: DBError.self) {
            try db.write { tx in try Self.insert("while locked", tx) }
        }
        let description = Self.expectTyped(error, .busy, .write, path: path, primaryCode: .SQLITE_BUSY)
        print("locked by another process: \(description)")
        // Readers are not blocked by another process's writer (WAL).
        #expect(try Self.names(db) == Self.committedBefore)

        _ = FileManager.default.createFile(atPath: release, contents: nil)
        _ = await holder.value
        try await db.write { tx in try Self.insert("after", tx) }
        try Self.expectIntact(path, plus: ["after"])
    }

    @Test func aLockReleasedWhileAWriterWaitsIsWaitedFor() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("waits.sqlite")
        let ready = directory.path("holder-ready")
        let release = directory.path("holder-release")
        // A busy handler that counts its calls, and otherwise waits like a
        // 60 s busy timeout: the test releases the lock only once the writer
        // is known to be waiting for it, instead of guessing with a sleep.
        let busyWaits = BusyWaitCounter()
        var options = SQLiteDB.Options()
        options.prepareDatabase { db in busyWaits.install(on: db) }
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        try Self.commitBefore(db)

        let holder = Task {
            await #expect(processExitsWith: .success) { [path = path as String, ready = ready as String, release = release as String] in
                // Holds the write lock until the release file appears (at most 30 s).
                try LockHolder.hold(path: path, ready: ready, release: release, atMostSeconds: 30)
            }
        }
        try await LockHolder.waitForFile(ready)

        let writer = Task {
            try await db.write { tx in try Self.insert("after waiting", tx) }
        }
        while busyWaits.count == 0 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        _ = FileManager.default.createFile(atPath: release, contents: Data())
        try await writer.value
        _ = await holder.value
        #expect(busyWaits.count >= 1, "the writer met the lock and waited for it")
        try Self.expectIntact(path, plus: ["after waiting"])
    }

    // MARK: - Full

    @Test func aDatabaseSizeLimitReachedInsideAWriteIsDiskFull() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("limit.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.commitBefore(db)

        let error = #expect(throws: DBError.self) {
            try db.write { tx in
                let connection = try SQLiteDB.shimOnlyBridge(tx)
                let pages = try Int.fetchOne(connection, sql: "PRAGMA page_count")!
                try connection.execute(sql: "PRAGMA max_page_count = \(pages + 2)")
                for index in 0..<100 {
                    try Self.insert("big \(index) " + String(repeating: "x", count: 8_000), tx)
                }
            }
        }
        let description = Self.expectTyped(error, .diskFull, .write, path: path, primaryCode: .SQLITE_FULL)
        print("size limit (max_page_count): \(description)")
        #expect(try Self.names(db) == Self.committedBefore)

        // Lift the limit (it belongs to the writer connection): writing works again.
        try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "PRAGMA max_page_count = 1073741823") }
        try db.write { tx in try Self.insert("after", tx) }
        try Self.expectIntact(path, plus: ["after"])
    }

    @Test func aFullFileSystemIsDiskFull() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let mountPoint = directory.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        try SmallFileSystem.mount(at: mountPoint, bytes: 512 * 1024)
        defer { SmallFileSystem.unmount(mountPoint) }
        let path = mountPoint + "/full.sqlite"

        var committedWhileFilling: [String] = []
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
            var caught: DBError?
            for index in 0..<1_000 {
                let name = "fill \(index) " + String(repeating: "y", count: 16_000)
                do {
                    try db.write { tx in try Self.insert(name, tx) }
                    committedWhileFilling.append(name)
                } catch let error as DBError {
                    caught = error
                    break
                }
            }
            let description = Self.expectTyped(caught, .diskFull, nil, path: path, primaryCode: .SQLITE_FULL)
            #expect(!committedWhileFilling.isEmpty)
            print("full file system: \(description)")
            // Still readable while the disk is full.
            #expect(try Self.names(db) == Self.committedBefore + committedWhileFilling)
        }
        // And after reopening, still on the full file system.
        try Self.expectIntact(path, plus: committedWhileFilling)
    }

    // MARK: - Missing directory

    @Test func aPathInAMissingDirectoryIsMissingDirectoryAndCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let missing = directory.path("missing")
        let path = missing + "/db.sqlite"
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = Self.expectTyped(error, .missingDirectory, .open, path: path, primaryCode: nil)
        print("missing directory: \(description)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    // MARK: - Migrations

    @Test func aMigrationFailingHalfwayLeavesTheLastGoodVersionAndItsData() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("migration.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
        }
        var broken = Self.migrator
        broken.registerMigration("v2 add notes") { db in
            try db.execute(sql: "ALTER TABLE item ADD COLUMN note TEXT")
            try db.execute(sql: "UPDATE item SET note = 'migrated', name = name || ' (v2)'")
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
        }
        for _ in 0..<2 {  // Failing again changes nothing either.
            let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: broken) }
            let description = Self.expectTyped(error, .migrationFailed, .migrate, path: path, primaryCode: .SQLITE_ERROR)
            #expect(description.contains("v2 add notes"))
            #expect(description.contains("1 applied migration"))
            print("failing migration: \(description)")
        }

        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        let (columns, tables, applied) = try db.read { tx in
            let db = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try db.columns(in: "item").map(\.name),
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'note'"),
                try Self.migrator.appliedIdentifiers(db))
        }
        #expect(columns == ["id", "name"])
        #expect(tables.isEmpty)
        #expect(applied == ["v1"])
        try Self.expectIntact(path)
    }

    // MARK: - Errors inside a write

    struct AppError: Error, Equatable {
        let reason: String
    }

    @Test func anErrorThrownInsideAWriteRollsBackEveryTableAndIsRethrownUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("throws.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.commitBefore(db)
        #expect(throws: AppError(reason: "validation")) {
            try db.write { tx in
                try Self.insert("rolled back 1", tx)
                try Self.insert("rolled back 2", tx)
                throw AppError(reason: "validation")
            }
        }
        #expect(try Self.names(db) == Self.committedBefore)
        try Self.expectIntact(path)
    }

    @Test func anSQLErrorInsideAWriteRollsBackTheEarlierStatements() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("sql-error.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.commitBefore(db)
        let error = #expect(throws: DBConstraintViolation.self) {
            try db.write { tx in
                try Self.insert("rolled back", tx)
                try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES (NULL)")
            }
        }
        #expect(error?.kind == .notNull)
        #expect(error?.path == path)
        print("constraint violated inside a write: \(error.map { "\($0)" } ?? "none")")
        #expect(try Self.names(db) == Self.committedBefore)
        try Self.expectIntact(path)
    }
}

/// Counts the calls of an SQLite busy handler that retries every millisecond
/// for up to 60 s (the behaviour of a 60 s busy timeout).
final class BusyWaitCounter: Sendable {
    private let calls = AtomicInt(0)

    var count: Int { calls.load(ordering: .acquiring) }

    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_busy_handler(db.sqliteConnection, { context, attempts in
            let counter = Unmanaged<BusyWaitCounter>.fromOpaque(context!).takeUnretainedValue()
            counter.calls.wrappingAdd(1, ordering: .releasing)
            usleep(1_000)
            return attempts < 60_000 ? 1 : 0
        }, context)
    }
}
