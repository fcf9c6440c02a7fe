import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// A write block that goes on after SQLite ended its transaction (SQLite
/// rolls a transaction back by itself after an interrupt, a full disk, an
/// I/O error; or the block ran `ROLLBACK` or `COMMIT` itself) commits
/// nothing: the statements that would run outside the transaction are
/// refused, and the write fails.
@Suite("SQLiteDB stray commits")
struct SQLiteStrayCommitTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        return migrator
    }

    static func count(_ db: SQLiteDB) throws -> Int? {
        try db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM item") }
    }

    static func databases(_ directory: TemporaryDirectory, options: SQLiteDB.Options = SQLiteDB.Options()) throws -> [SQLiteDB] {
        [
            try SQLiteDB(path: directory.path("stray.sqlite"), migrator: migrator, options: options),
            try SQLiteDB.inMemory(migrator: migrator, options: options),
        ]
    }

    /// A real automatic rollback: SQLite rolls back the whole transaction
    /// when an INSERT inside it is interrupted.
    @Test func anInterruptTheBlockSwallowsLeavesNothingCommitted() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        var options = SQLiteDB.Options()
        options.prepareDatabase { db in
            nonisolated(unsafe) let connection = db.sqliteConnection
            db.add(function: DatabaseFunction("interrupt_now", argumentCount: 0, pure: false) { _ in
                sqlite3_interrupt(connection)
                return 0
            })
        }
        for db in try Self.databases(directory, options: options) {
            let sawInterrupt = Mutex(false)
            let sawRefusal = Mutex(false)
            let error = #expect(throws: DBError.self) {
                try db.write { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('before')")
                    do {
                        try connection.execute(sql: """
                            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                            INSERT INTO item (name) SELECT 'x' || i FROM n WHERE interrupt_now() = 0
                            """)
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
                        sawInterrupt.withLock { $0 = true }
                    }
                    do {
                        try connection.execute(sql: "INSERT INTO item (name) VALUES ('after')")
                    } catch is DBError {
                        sawRefusal.withLock { $0 = true }
                    }
                }
            }
            #expect(sawInterrupt.withLock { $0 }, "\(db.path)")
            #expect(sawRefusal.withLock { $0 }, "\(db.path)")
            #expect(error?.kind == .other)
            #expect(error?.operation == .commit)
            #expect(error?.message.contains("transaction ended before its block returned") == true)
            #expect(try Self.count(db) == 0, "\(db.path)")
            try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('next')") }
            #expect(try Self.count(db) == 1, "\(db.path): the next write commits normally")
        }
    }

    @Test func aBlockThatRollsBackItselfAndGoesOnCommitsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        for db in try Self.databases(directory) {
            let error = #expect(throws: DBError.self) {
                try db.write { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('before')")
                    try connection.execute(sql: "ROLLBACK")
                    _ = try? connection.execute(sql: "INSERT INTO item (name) VALUES ('after')")
                }
            }
            #expect(error?.message.contains("transaction ended before its block returned") == true)
            #expect(try Self.count(db) == 0, "\(db.path)")
        }
    }

    @Test func aCommitRunByTheBlockIsRefusedAndRolledBack() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        for db in try Self.databases(directory) {
            let error = #expect(throws: DBError.self) {
                try db.write { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('before')")
                    try connection.execute(sql: "COMMIT")
                }
            }
            #expect(error?.path == db.path)
            #expect(error?.message.contains("tried to commit outside the write transaction") == true)
            #expect(try Self.count(db) == 0, "\(db.path)")
        }
    }

    /// A read whose transaction ended early would mix snapshots: it fails
    /// instead of returning.
    @Test func aReadWhoseTransactionEndedEarlyFails() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        for db in try Self.databases(directory) {
            let error = #expect(throws: DBError.self) {
                try db.read { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    _ = try Int.fetchOne(connection, sql: "SELECT COUNT(*) FROM item")
                    try connection.execute(sql: "ROLLBACK")
                    return try Int.fetchOne(connection, sql: "SELECT COUNT(*) FROM item")
                }
            }
            #expect(error?.message.contains("transaction ended before its block returned") == true, "\(db.path)")
            #expect(try Self.count(db) == 0, "\(db.path): the next read works")
        }
    }
}
