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

/// Every database file TransactionKit creates is `0600`, whatever the path
/// resolves through, and a failed open leaves the files as it found them.
@Suite("SQLite file modes and debris")
struct SQLiteFileModeTests {
    static var migrator: DatabaseMigrator { SQLiteFaultTests.migrator }

    struct PrepareFailure: Error {}

    /// Options whose connection preparation fails: the open fails after
    /// the file was created or adopted.
    static var failingOptions: SQLiteDB.Options {
        var options = SQLiteDB.Options()
        options.prepareDatabase { _ in throw PrepareFailure() }
        return options
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    static func writeAndCheckpoint(_ db: SQLiteDB) throws {
        try db.write { tx in try SQLiteFaultTests.insert("secret", tx) }
    }

    @Test func aDatabaseCreatedThroughADanglingSymbolicLinkIsOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let target = directory.path("real.sqlite")
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        let previous = umask(0o022)
        defer { umask(previous) }

        let db = try SQLiteDB(path: link, migrator: Self.migrator)
        try Self.writeAndCheckpoint(db)
        #expect(Self.mode(target) == 0o600)
        // SQLite resolves the link: the companions sit next to the target.
        for companion in [target + "-wal", target + "-shm"] {
            #expect(Self.mode(companion) == 0o600, "\(companion)")
        }
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        #expect(destination == "real.sqlite", "the link stays a link")
        try db.close()
        #expect(try SQLiteFaultTests.names(SQLiteDB(path: target, migrator: Self.migrator)) == ["secret"])
    }

    @Test func anEmptyFileAdoptedAsANewDatabaseBecomesOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("touched.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(chmod(path, 0o644) == 0)

        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.writeAndCheckpoint(db)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(Self.mode(file) == 0o600, "\(file)")
        }
    }

    @Test func anExistingDatabaseKeepsItsPermissions() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("shared.sqlite")
        try SQLiteDB(path: path, migrator: Self.migrator).close()
        #expect(chmod(path, 0o640) == 0)
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try Self.writeAndCheckpoint(db)
        #expect(Self.mode(path) == 0o640, "a database with content is the owner's choice")
    }

    @Test func aFailedOpenRemovesTheEmptyFileItCreated() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("failed.sqlite")
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator, options: Self.failingOptions) }
        #expect(error?.underlyingError is PrepareFailure, "\(String(describing: error))")
        #expect(error?.path == path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
    }

    @Test func aFailedOpenThroughADanglingLinkRemovesTheTargetItCreatedAndKeepsTheLink() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        #expect(throws: DBError.self) { try SQLiteDB(path: link, migrator: Self.migrator, options: Self.failingOptions) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["link.sqlite"])
    }

    @Test func aFailedOpenRestoresTheModeOfAnAdoptedEmptyFileAndKeepsIt() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("theirs.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(chmod(path, 0o664) == 0)
        #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator, options: Self.failingOptions) }
        #expect(FileManager.default.fileExists(atPath: path), "a file the open did not create is never removed")
        #expect(Self.mode(path) == 0o664)
    }

    @Test func aFailedOpenOfAnExistingDatabaseLeavesItAndItsData() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("existing.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: Self.migrator)
            try SQLiteFaultTests.commitBefore(db)
            try db.close()
        }
        #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator, options: Self.failingOptions) }
        try SQLiteFaultTests.expectIntact(path)
    }
}
