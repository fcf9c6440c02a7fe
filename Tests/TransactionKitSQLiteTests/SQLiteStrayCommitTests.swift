import Foundation
import GRDB
import GRDBSQLite
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// A write block that goes on after SQLite ended its transaction (SQLite
/// rolls a transaction back by itself after an interrupt, a full disk, an
/// I/O error; or the block ran `ROLLBACK` or `COMMIT` itself) fails: the
/// backend finds the transaction gone when the block returns, runs no
/// completion and throws. Nothing watches the statements in between (that
/// would cost every statement of every write): those that ran after the
/// transaction ended ran outside it, each committed on its own, and commit
/// observers hear them.
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

    static func names(_ db: SQLiteDB) throws -> [String] {
        try db.read { tx in try String.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item ORDER BY id") }
    }

    static func databases(_ directory: TemporaryDirectory, options: SQLiteDB.Options = SQLiteDB.Options()) throws -> [SQLiteDB] {
        [
            try SQLiteDB(path: directory.path("stray.sqlite"), migrator: migrator, options: options),
            try SQLiteDB.inMemory(migrator: migrator, options: options),
        ]
    }

    /// A real automatic rollback: SQLite rolls back the whole transaction
    /// when an INSERT inside it is interrupted.
    @Test func anInterruptTheBlockSwallowsFailsTheWrite() throws {
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
            let sawInterrupt = LockedValue(false)
            let completed = CompletionFlag()
            let error = #expect(throws: DBError.self) {
                try db.write { tx in
                    tx.addSyncCompletion { completed.set() }
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
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('after')")
                }
            }
            #expect(sawInterrupt.withLock { $0 }, "\(db.path)")
            #expect(!completed.isSet, "\(db.path)")
            #expect(error?.kind == .other)
            #expect(error?.operation == .commit)
            #expect(error?.message.contains("transaction ended before its block returned") == true)
            #expect(error?.message.contains("stay committed") == true)
            #expect(try Self.names(db) == ["after"], "\(db.path): the interrupt rolled 'before' back; 'after' ran alone")
            try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('next')") }
            #expect(try Self.count(db) == 2, "\(db.path): the next write commits normally")
        }
    }

    @Test func aBlockThatRollsBackItselfAndGoesOnFails() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        for db in try Self.databases(directory) {
            let error = #expect(throws: DBError.self) {
                try db.write { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('before')")
                    try connection.execute(sql: "ROLLBACK")
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('after')")
                }
            }
            #expect(error?.message.contains("transaction ended before its block returned") == true)
            #expect(try Self.names(db) == ["after"], "\(db.path)")
        }
    }

    /// A `COMMIT` run by the block commits, the write fails, and observers
    /// hear the commit like any other.
    @Test func aCommitRunByTheBlockFailsTheWriteAndObserversHearIt() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        for db in try Self.databases(directory) {
            let heard = LockedValue<[DBChanges]>([])
            let queue = DispatchQueue(label: "observer")
            let observation = db.observeCommits(tables: ["item"], queue: queue) { changes in
                heard.withLock { $0.append(changes) }
            }
            defer { observation.cancel() }
            let error = #expect(throws: DBError.self) {
                try db.write { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('before')")
                    try connection.execute(sql: "COMMIT")
                }
            }
            queue.sync {}
            #expect(error?.path == db.path)
            #expect(error?.message.contains("transaction ended before its block returned") == true)
            #expect(try Self.names(db) == ["before"], "\(db.path)")
            #expect(heard.withLock { $0 } == [DBChanges(tables: ["item"])], "\(db.path)")
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

/// Whether a completion ran.
private final class CompletionFlag: Sendable {
    private let value = LockedValue(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
