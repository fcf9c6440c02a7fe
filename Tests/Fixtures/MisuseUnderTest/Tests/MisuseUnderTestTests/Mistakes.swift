import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// One function per programmer error, shared by the Swift Testing and the
/// XCTest tests. Each mistake sits on a line marked `// MISUSE: name`, which
/// the checking test looks for in the failure it expects.
enum Mistakes {
    static func escapedTransaction() throws {
        let db = MockDB()
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        try db.write { tx in escaped = tx }
        escaped?.addSyncCompletion {} // MISUSE: escaped
    }

    static func nestedTransaction() throws {
        let db = MockDB()
        try db.write { _ in
            try db.read { _ in } // MISUSE: nested
        }
    }

    static func mockTransactionAtTheBridge() throws {
        let db = MockDB()
        try db.write { tx in
            _ = try SQLiteDB.shimOnlyBridge(tx) // MISUSE: bridge
        }
    }

    static func forgottenStub() throws {
        final class FinderMock: Sendable {
            func find(_ tx: DBReadTransaction) throws -> Int {
                throw unimplemented("FinderMock.find") // MISUSE: unimplemented
            }
        }
        let db = MockDB()
        _ = try db.read { tx in try FinderMock().find(tx) }
    }

    static func escapedTransactionInAMock() throws {
        let db = MockDB()
        nonisolated(unsafe) var escaped: DBReadTransaction?
        try db.read { tx in escaped = tx }
        escaped?.preconditionActive() // MISUSE: precondition
    }

    static func savepointOnAnEscapedTransaction() throws {
        let db = MockDB()
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        try db.write { tx in
            try tx.inSavepoint {
                escaped = tx
                return .commit
            }
        }
        try escaped?.inSavepoint { .commit } // MISUSE: savepoint
    }

    /// What a correct test does: it must pass beside the mistakes.
    static func correctUse() throws -> Int {
        let db = MockDB()
        let value = try db.write { tx in
            tx.addSyncCompletion {}
            return 42
        }
        return value + db.commitCount
    }
}
