import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// A savepoint whose transaction SQLite ended inside it (here the block
/// ran `ROLLBACK`): its release, or its rollback, finds the transaction
/// gone and throws the error the write would throw, so that the block's
/// code learns it at the savepoint, not at the commit.
extension SQLiteStrayCommitTests {
    @Test(arguments: [DBSavepointCompletion.commit, .rollback])
    func aSavepointWhoseTransactionEndedInsideItFails(_ completion: DBSavepointCompletion) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        for db in try Self.databases(directory) {
            let savepointError = LockedValue<DBError?>(nil)
            let writeError = #expect(throws: DBError.self) {
                try db.write { tx in
                    let connection = try SQLiteDB.shimOnlyBridge(tx)
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('before')")
                    do {
                        try tx.inSavepoint {
                            try connection.execute(sql: "ROLLBACK")
                            return completion
                        }
                    } catch let error as DBError {
                        savepointError.withLock { $0 = error }
                    }
                    try connection.execute(sql: "INSERT INTO item (name) VALUES ('after')")
                }
            }
            let error = savepointError.withLock { $0 }
            #expect(error?.operation == .write, "\(db.path)")
            #expect(error?.message.contains("transaction ended before its block returned") == true, "\(db.path)")
            #expect(writeError?.message.contains("transaction ended before its block returned") == true)
            #expect(try Self.names(db) == ["after"], "\(db.path): the ROLLBACK took 'before'; 'after' ran alone")
        }
    }
}
