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

/// Errors that never mislead: each names the fault for what it is, and
/// prints the path so that every character of it shows.
@Suite("SQLite error messages")
struct SQLiteErrorMessageTests {
    static var migrator: DatabaseMigrator { SQLiteFaultTests.migrator }

    // MARK: - Paths

    /// Creates directories under `root` (one component of 200 characters
    /// after another, each relative to the previous one, since the whole
    /// path may be longer than the system accepts) until the path is at
    /// least `length` bytes long; returns it.
    static func deepDirectory(under root: String, length: Int) throws -> String {
        var path = root
        var parent = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let component = String(repeating: "d", count: 200)
        while path.utf8.count < length {
            guard mkdirat(parent, component, 0o700) == 0 else {
                close(parent)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            let child = openat(parent, component, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(parent)
            parent = child
            path += "/" + component
        }
        close(parent)
        return path
    }

    @Test func anExistingPathLongerThanTheSystemAcceptsIsNamedSoNotAMissingDirectory() throws {
        let directory = try TemporaryDirectory()
        defer {
            // FileManager cannot remove a tree deeper than PATH_MAX; rm can.
            _ = WriteProtection.run("/bin/rm", ["-rf", directory.url.path])
        }
        let deep = try Self.deepDirectory(under: directory.url.path, length: 5_000)
        let path = deep + "/db.sqlite"
        #expect(path.utf8.count > 5_000)
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = SQLiteFaultTests.expectTyped(error, .cannotOpen, .open, path: path, primaryCode: nil)
        #expect(error?.message.contains("bytes long") == true, "\(description)")
        #expect(!description.contains("does not exist"))
        print("5,000-byte path: \(description.prefix(160))…\(description.suffix(200))")
    }

    @Test func anExistingPathLongerThanSQLiteAcceptsIsNamedSoAndCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let deep = try Self.deepDirectory(under: directory.url.path, length: 700)
        #expect(FileManager.default.fileExists(atPath: deep), "the directory exists and the system accepts its path")
        let path = deep + "/db.sqlite"
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) }
        let description = SQLiteFaultTests.expectTyped(error, .cannotOpen, .open, path: path, primaryCode: nil)
        #expect(error?.message.contains("SQLite opens paths of at most") == true, "\(description)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [false, true])
    func devNullIsNotARegularFileNotADiskError(readOnly: Bool) throws {
        var options = SQLiteDB.Options()
        options.readOnly = readOnly
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: "/dev/null", migrator: Self.migrator, options: options) }
        let description = SQLiteFaultTests.expectTyped(error, .cannotOpen, .open, path: "/dev/null", primaryCode: nil)
        #expect(description.contains("a character device, not a regular file"))
        #expect(!description.contains("I/O"))
    }

    @Test func aDirectoryIsNotARegularFile() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: directory.url.path, migrator: Self.migrator) }
        let description = SQLiteFaultTests.expectTyped(error, .cannotOpen, .open, path: directory.url.path, primaryCode: nil)
        #expect(description.contains("a directory, not a regular file"))
    }

    @Test func controlCharactersInAPathArePrintedEscaped() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("evil\n\u{1B}[31mred\u{202E}txt.sqlite\\") + "/db.sqlite"
        let error = try #require(#expect(throws: DBError.self) { try SQLiteDB(path: path, migrator: Self.migrator) })
        #expect(error.kind == .missingDirectory)
        #expect(error.path == path, "the property keeps the path unchanged")
        let description = error.description
        #expect(!description.contains("\n"))
        #expect(!description.unicodeScalars.contains("\u{1B}"))
        #expect(!description.unicodeScalars.contains("\u{202E}"))
        #expect(description.contains(#"evil\n\u{1B}[31mred\u{202E}txt.sqlite\\/db.sqlite"#), "\(description)")
    }

    // MARK: - Extended codes

    /// Storage faults reported by a statement inside a block: the fault's
    /// kind whatever the transaction, except plain `SQLITE_READONLY` inside
    /// a read (a bug in the SQL, which passes through). The errors are
    /// injected (thrown by the block as SQLite would report them): the
    /// extended read-only codes, `SQLITE_PROTOCOL` and `SQLITE_PERM` need
    /// a damaged `-shm` file, a crashed writer or a lock refused by the
    /// kernel, which a test cannot cause reliably; in WAL mode SQLite does
    /// not even check for a moved file (`SQLITE_READONLY_DBMOVED`).
    @Test(arguments: [
        (ResultCode.SQLITE_READONLY_RECOVERY, DBError.Kind.readOnly),
        (.SQLITE_READONLY_CANTINIT, .readOnly),
        (.SQLITE_READONLY_DIRECTORY, .readOnly),
        (.SQLITE_READONLY_CANTLOCK, .readOnly),
        (.SQLITE_READONLY_ROLLBACK, .readOnly),
        (.SQLITE_READONLY_DBMOVED, .readOnly),
        (.SQLITE_PROTOCOL, .busy),
        (.SQLITE_LOCKED, .locked),
        (.SQLITE_LOCKED_SHAREDCACHE, .locked),
        (.SQLITE_PERM, .cannotOpen),
        (.SQLITE_NOTADB, .notADatabase),
        (.SQLITE_CORRUPT_INDEX, .corrupt),
        (.SQLITE_IOERR_FSYNC, .ioError),
    ])
    func extendedCodesInsideAReadAreEnvironmentFaults(code: ResultCode, kind: DBError.Kind) throws {
        let db = try SQLiteDB.inMemory(migrator: Self.migrator)
        for isWrite in [false, true] {
            let error = #expect(throws: DBError.self) {
                if isWrite {
                    try db.write { _ in throw DatabaseError(resultCode: code, message: "injected") }
                } else {
                    try db.read { _ in throw DatabaseError(resultCode: code, message: "injected") }
                }
            }
            #expect(error?.kind == kind, "\(code) in a \(isWrite ? "write" : "read"): \(String(describing: error))")
            #expect(error?.operation == (isWrite ? .write : .read))
            #expect(error?.resultCode == code.rawValue)
        }
    }

    @Test func plainReadOnlyInsideAReadPassesThroughAsABugInTheSQL() throws {
        let db = try SQLiteDB.inMemory(migrator: Self.migrator)
        let error = #expect(throws: DatabaseError.self) {
            try db.read { _ in throw DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database") }
        }
        #expect(error?.extendedResultCode == .SQLITE_READONLY)
    }

    @Test func lockedAndProtocolHaveTheirOwnAdvice() {
        let locked = DBError(kind: .locked, operation: .write, path: "/tmp/a.sqlite", resultCode: 6, message: "database table is locked")
        #expect(locked.description.contains("same connection"))
        #expect(locked.description.contains("this is not another process"))
        #expect(!locked.description.contains("Another connection or process"))
        let busy = DBError(kind: .busy, operation: .write, path: "/tmp/a.sqlite", resultCode: 5, message: "database is locked")
        #expect(busy.description.contains("Another connection or process"))
    }

    // MARK: - Closed

    /// `SQLITE_MISUSE` means a closed database only once `close()` was
    /// called, whatever GRDB's message says; otherwise it is a bug in the
    /// calling code and passes through unchanged.
    @Test(arguments: ["Connection is closed", "Multiple statements found"])
    func misuseOfAnOpenDatabaseIsNotClosedWhateverTheMessage(message: String) throws {
        let db = try SQLiteDB.inMemory(migrator: Self.migrator)
        let error = #expect(throws: DatabaseError.self) {
            try db.write { _ in throw DatabaseError(resultCode: .SQLITE_MISUSE, message: message) }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }

    @Test func aTransactionAfterCloseIsClosed() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("closed.sqlite")
        let db = try SQLiteDB(path: path, migrator: Self.migrator)
        try db.close()
        let error = #expect(throws: DBError.self) { try db.read { _ in 0 } }
        SQLiteFaultTests.expectTyped(error, .closed, .read, path: path, primaryCode: nil)
        let integrity = #expect(throws: DBError.self) { try db.checkIntegrity() }
        #expect(integrity?.kind == .closed)
    }

    // MARK: - Commit

    @Test func anIOErrorWhileCommittingHasAnUnknownOutcome() {
        let commit = DBError(kind: .ioError, operation: .commit, path: "/tmp/a.sqlite", resultCode: 1034, message: "disk I/O error")
        #expect(commit.isOutcomeUnknown)
        #expect(commit.description.contains("outcome of this write is unknown"))
        #expect(commit.description.contains("Reopen the database and check"))
        let write = DBError(kind: .ioError, operation: .write, path: "/tmp/a.sqlite", resultCode: 1034, message: "disk I/O error")
        #expect(!write.isOutcomeUnknown)
        let full = DBError(kind: .diskFull, operation: .commit, path: "/tmp/a.sqlite", resultCode: 13, message: "full")
        #expect(!full.isOutcomeUnknown)
    }

    // MARK: - Advice

    /// No advice tells anybody to delete a file: the path may name
    /// somebody else's file.
    @Test func noAdviceSuggestsDeletingAFile() {
        for kind in DBError.Kind.allCases {
            for operation in [DBError.Operation.open, .read, .write, .commit] {
                let error = DBError(kind: kind, operation: operation, path: "/tmp/a.sqlite", message: "m")
                #expect(!error.description.localizedCaseInsensitiveContains("delete"), "\(kind): \(error)")
                #expect(!error.description.contains("will not write"), "\(kind): \(error)")
            }
        }
    }
}
