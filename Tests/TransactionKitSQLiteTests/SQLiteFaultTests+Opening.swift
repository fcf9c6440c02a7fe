import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Faults while opening and migrating, caused for real: a lock held by
/// another connection, a database size limit, a full file system.
extension SQLiteFaultTests {
    /// ``migrator`` plus a second migration that writes about 800 KB.
    static var migratorWithBigV2: DatabaseMigrator {
        var migrator = migrator
        migrator.registerMigration("v2 big") { db in
            try db.execute(sql: "CREATE TABLE blob (id INTEGER PRIMARY KEY, data TEXT NOT NULL)")
            for index in 0..<100 {
                try db.execute(
                    sql: "INSERT INTO blob (data) VALUES (?)",
                    arguments: ["\(index) " + String(repeating: "b", count: 8_000)])
            }
        }
        return migrator
    }

    /// The identifiers applied to the database at `path`, read by another
    /// connection.
    static func applied(_ path: String) throws -> Set<String> {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try migrator.appliedIdentifiers(db) }
    }

    // MARK: - Busy

    @Test func aDatabaseLockedExclusivelyByAnotherConnectionIsBusyWhileOpening() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("exclusive.sqlite")
        try Self.createCommittedFile(path)
        // Another connection in exclusive locking mode keeps every other
        // connection out of the file, readers included, until it closes.
        let holder = try RawSQLiteConnection(path)
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO item (name) VALUES ('holder');")
        var options = SQLiteDB.Options()
        options.busyTimeout = .milliseconds(200)
        let stopwatch = Stopwatch()
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator, options: options) }
        let elapsed = stopwatch.seconds
        let description = Self.expectTyped(error, .busy, .open, path: path, primaryCode: .SQLITE_BUSY)
        #expect(elapsed >= 0.2, "a busy error only after the busy timeout, not after \(elapsed) s")
        print("busy while opening: \(description)")
        try holder.execute("ROLLBACK")
        holder.close()
        try Self.expectIntact(path)
    }

    @Test func aWriteLockHeldByAnotherConnectionIsBusyWhileMigrating() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("migrating.sqlite")
        try Self.createCommittedFile(path)
        let holder = try RawSQLiteConnection(path)
        // A committed transaction first, so that the -wal file is not empty
        // and opening the pool has nothing to write (GRDB writes to a
        // database whose -wal file is empty): only the migration needs the
        // write lock.
        try holder.execute("INSERT INTO item (name) VALUES ('x'); DELETE FROM item WHERE name = 'x';")
        try holder.execute("BEGIN IMMEDIATE; INSERT INTO item (name) VALUES ('holder');")
        var options = SQLiteDB.Options()
        options.busyTimeout = .milliseconds(200)
        let error = #expect(throws: DBError.self) {
            try SQLiteDB(path: path, migrator: Self.migratorWithBigV2, options: options)
        }
        let description = Self.expectTyped(error, .busy, .migrate, path: path, primaryCode: .SQLITE_BUSY)
        print("busy while migrating: \(description)")
        try holder.execute("ROLLBACK")
        holder.close()
        #expect(try Self.applied(path) == ["v1"])
        try Self.expectIntact(path)
        // Once the lock is gone, the next open migrates.
        let db = try SQLiteDB(path: path, migrator: Self.migratorWithBigV2)
        #expect(db.migrationsAppliedOnOpen == ["v2 big"])
    }

    // MARK: - Full

    @Test func aDatabaseSizeLimitReachedWhileMigratingIsDiskFull() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("limit-migrate.sqlite")
        try Self.createCommittedFile(path)
        let pages = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) / 4096
        var options = SQLiteDB.Options()
        options.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(pages + 10)") }
        let error = #expect(throws: DBError.self) {
            try SQLiteDB(path: path, migrator: Self.migratorWithBigV2, options: options)
        }
        let description = Self.expectTyped(error, .diskFull, .migrate, path: path, primaryCode: .SQLITE_FULL)
        print("size limit while migrating: \(description)")
        #expect(try Self.applied(path) == ["v1"])
        try Self.expectIntact(path)
    }

    @Test func aFullFileSystemWhileMigratingIsDiskFull() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let mountPoint = directory.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        try SmallFileSystem.mount(at: mountPoint, bytes: 512 * 1024)
        defer { SmallFileSystem.unmount(mountPoint) }
        let path = mountPoint + "/migrate-full.sqlite"

        // The first connection keeps the -wal and -shm files allocated, then
        // the rest of the file system is filled.
        let first = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.commitBefore(first)
        let filler = try SmallFileSystem.fill(mountPoint)
        let error = #expect(throws: DBError.self) {
            try SQLiteDB(path: path, migrator: Self.migratorWithBigV2)
        }
        let description = Self.expectTyped(error, .diskFull, .migrate, path: path, primaryCode: .SQLITE_FULL)
        print("full file system while migrating: \(description)")
        // Still readable while the disk is full.
        #expect(try Self.names(first) == Self.committedBefore)
        try FileManager.default.removeItem(atPath: filler)
        try first.close()
        #expect(try Self.applied(path) == ["v1"])
        try Self.expectIntact(path)
    }

    @Test func aFullFileSystemWhileOpeningANewDatabaseIsDiskFullAndLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let mountPoint = directory.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        try SmallFileSystem.mount(at: mountPoint, bytes: 256 * 1024)
        defer { SmallFileSystem.unmount(mountPoint) }
        let path = mountPoint + "/new-full.sqlite"
        let filler = try SmallFileSystem.fill(mountPoint)

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = Self.expectTyped(error, .diskFull, .open, path: path, primaryCode: .SQLITE_FULL)
        print("full file system while opening: \(description)")
        // The empty file the open created is removed: no debris.
        #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint) == [(filler as NSString).lastPathComponent])

        // With space again, the same path opens as a new database.
        try FileManager.default.removeItem(atPath: filler)
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.commitBefore(db)
        try db.close()
        try Self.expectIntact(path)
    }

    /// Creates the database at `path`, commits ``committedBefore``, and
    /// closes it (its -wal and -shm are gone).
    static func createCommittedFile(_ path: String) throws {
        let db = try SQLiteDB(path: path, migrator: migrator)
        try commitBefore(db)
        try db.close()
    }
}
