import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// A failed open removes the empty file it created, but never while
/// another connection has it open with a lock: that connection would go on
/// writing to a removed file.
@Suite("SQLiteDB failed-open cleanup")
struct SQLiteFileCleanupTests {
    /// The other connection, opened while our open runs.
    final class Interloper: @unchecked Sendable {
        private let lock = NSLock()
        private var connection: RawSQLiteConnection?
        let path: String

        init(path: String) { self.path = path }

        /// Opens the file and holds a shared lock on it (an open read
        /// transaction), once.
        func holdSharedLock() throws {
            try lock.withLock {
                guard connection == nil else { return }
                let connection = try RawSQLiteConnection(path)
                try connection.execute("BEGIN; SELECT count(*) FROM sqlite_master;")
                self.connection = connection
            }
        }

        func finishAndWrite() throws {
            try lock.withLock {
                try connection?.execute("COMMIT; CREATE TABLE kept (x); INSERT INTO kept VALUES (42);")
            }
        }
    }

    @Test func aFailedOpenKeepsTheNewFileWhileAnotherConnectionHoldsALockOnIt() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("new.sqlite")
        let interloper = Interloper(path: path)
        var options = SQLiteDB.Options()
        options.busyTimeout = .milliseconds(200)
        options.prepareDatabase { db in
            // Runs once our open created the empty file, before it writes.
            if !db.configuration.readonly {
                try interloper.holdSharedLock()
            }
        }
        let error = #expect(throws: DBError.self) { try SQLiteDB(path: path, options: options) }
        #expect(error?.kind == .busy, "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: path), "the file the other connection uses was removed")

        // The other connection's writes land in the file at the path.
        try interloper.finishAndWrite()
        let reader = try RawSQLiteConnection(path)
        #expect(try reader.integer("SELECT x FROM kept") == 42)
    }

    @Test func aFailedOpenRemovesTheNewFileNobodyUses() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("new.sqlite")
        var options = SQLiteDB.Options()
        options.prepareDatabase { _ in
            throw CocoaError(.featureUnsupported)
        }
        #expect(throws: DBError.self) { try SQLiteDB(path: path, options: options) }
        #expect(!FileManager.default.fileExists(atPath: path), "the empty file the failed open created is left")
    }
}
