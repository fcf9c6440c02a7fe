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

extension SQLiteFaultTests {
    // MARK: - Read-only

    @Test func aReadOnlyFileIsReadOnlyAndStaysReadable() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("readonly.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
        }
        let protection = try WriteProtection.protect(path)
        defer { protection.remove() }

        do {
            // Opening may succeed (SQLite falls back to a read-only
            // connection); writing may not.
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            #expect(try Self.names(db) == Self.committedBefore)
            let error = #expect(throws: DBError.self) {
                try db.write { tx in try Self.insert("refused", tx) }
            }
            let description = Self.expectTyped(error, .readOnly, .write, path: path, primaryCode: .SQLITE_READONLY)
            print("read-only file (\(protection.method)): \(description)")
        } catch let error as DBError {
            let description = Self.expectTyped(error, .readOnly, .open, path: path, primaryCode: .SQLITE_READONLY)
            print("read-only file (\(protection.method)): \(description)")
        }
        // Once the file is writable again, so is the database, even though
        // the failed open left read-only -wal/-shm files behind (SQLite
        // copies the file's mode at the time).
        protection.remove()
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try db.write { tx in try Self.insert("after", tx) }
        try Self.expectIntact(path, plus: ["after"])
    }

    @Test func anExistingDatabaseInAReadOnlyDirectoryIsReadOnly() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let databaseDirectory = directory.path("locked-dir")
        try FileManager.default.createDirectory(atPath: databaseDirectory, withIntermediateDirectories: false)
        let path = databaseDirectory + "/db.sqlite"
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
        }
        // The -wal and -shm files are gone once the database is closed, and
        // cannot be created again.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let protection = try WriteProtection.protect(databaseDirectory)
        defer { protection.remove() }

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        // SQLITE_CANTOPEN with `chattr +i`; SQLITE_READONLY_DIRECTORY with `chmod`.
        let description = Self.expectTyped(error, .readOnly, .open, path: path, primaryCode: .SQLITE_CANTOPEN, or: .SQLITE_READONLY)
        print("read-only directory, existing file (\(protection.method)): \(description)")
        protection.remove()
        try Self.expectIntact(path)
    }

    @Test func aNewDatabaseInAReadOnlyDirectoryIsReadOnly() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let databaseDirectory = directory.path("locked-dir")
        try FileManager.default.createDirectory(atPath: databaseDirectory, withIntermediateDirectories: false)
        let path = databaseDirectory + "/new.sqlite"
        let protection = try WriteProtection.protect(databaseDirectory)
        defer { protection.remove() }

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = Self.expectTyped(error, .readOnly, .open, path: path, primaryCode: nil)
        print("read-only directory, new file (\(protection.method)): \(description)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // MARK: - Corrupt

    @Test func aFileWithAGarbageHeaderIsNotADatabaseAndIsNotWritten() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("garbage.sqlite")
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: path))

        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = Self.expectTyped(error, .notADatabase, .open, path: path, primaryCode: .SQLITE_NOTADB)
        print("garbage header: \(description)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func aDatabaseCutInsideItsHeaderIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("cut-header.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
        }
        try Self.truncate(path, to: 60)

        let error = #expect(throws: DBError.self) {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            _ = try Self.names(db)
        }
        let description = Self.expectTyped(error, .corrupt, nil, path: path, primaryCode: .SQLITE_CORRUPT)
        print("file cut inside its header: \(description)")
    }

    @Test func aTruncatedDatabaseIsCorruptWhenReadNotACrash() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("truncated.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try Self.commitBefore(db)
            for index in 0..<200 {
                try db.write { tx in try Self.insert("row \(index) " + String(repeating: "z", count: 1_000), tx) }
            }
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try Self.truncate(path, to: size / 2 + 100)

        let error = #expect(throws: DBError.self) {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try db.read { tx in
                _ = try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item")
            }
        }
        let description = Self.expectTyped(error, .corrupt, nil, path: path, primaryCode: .SQLITE_CORRUPT)
        print("truncated file: \(description)")
    }

    static func truncate(_ path: String, to size: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }
}
