import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Reads during which GRDB did not see the connection leave autocommit mode
/// (an empty block, a `fetchOne` that stops at its row) end without GRDB
/// (their `COMMIT` is stepped directly): they must still end their
/// transaction, and leave GRDB's own view of the connection as a GRDB
/// commit would. One reader, so that every read below runs on the same
/// connection.
extension SQLiteReaderPoolTests {
    private static func oneReaderDatabase(_ directory: TemporaryDirectory, _ name: String) throws -> SQLiteDB {
        var options = SQLiteDB.Options()
        options.maximumReaderCount = 1
        return try SQLiteDB(path: directory.path(name), migrator: migrator, options: options)
    }

    @Test func aReadThatGRDBDidNotSeeEndsItsSnapshot() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let db = try Self.oneReaderDatabase(directory, "untouched.sqlite")

        try db.read { _ in }
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "UPDATE item SET name = 'uno' WHERE id = 1")
        }
        let name = try db.read { tx in
            try String.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT name FROM item WHERE id = 1")
        }
        #expect(name == "uno")
        try db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO item (name) VALUES ('three')")
        }

        let (lastName, count) = try db.read { tx in
            let connection = try SQLiteDB.shimOnlyBridge(tx)
            return (
                try String.fetchOne(connection, sql: "SELECT name FROM item WHERE id = 1"),
                try Int.fetchOne(connection, sql: "SELECT COUNT(*) FROM item"))
        }
        #expect(lastName == "uno")
        #expect(count == 3)
    }

    @Test func aReadAfterReadsGRDBDidNotSeeGetsItsOwnTransactionDate() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let db = try Self.oneReaderDatabase(directory, "dates.sqlite")
        // GRDB records a transaction's date when one of its statements
        // finishes inside it (a whole fetch, not `fetchOne`, which stops at
        // the first row), and forgets it when one of its statements ends
        // the transaction: a read that reached the connection must end
        // through GRDB, or the next one would report the same date.
        func dateOfAReadRunningAStatement() throws -> Date {
            try db.read { tx in
                let connection = try SQLiteDB.shimOnlyBridge(tx)
                _ = try Int.fetchAll(connection, sql: "SELECT id FROM item")
                return try connection.transactionDate
            }
        }

        let first = try dateOfAReadRunningAStatement()
        // Dates are compared, not durations: the pause only makes sure the
        // clock moved on.
        Thread.sleep(forTimeInterval: 0.01)
        try db.read { _ in }
        _ = try db.read { tx in
            try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT id FROM item")
        }
        let second = try dateOfAReadRunningAStatement()
        Thread.sleep(forTimeInterval: 0.01)
        let third = try dateOfAReadRunningAStatement()

        #expect(second > first)
        #expect(third > second)
    }
}
