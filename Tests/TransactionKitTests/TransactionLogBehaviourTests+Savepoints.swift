import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// Mock calls made inside a savepoint that rolled back stay in the log,
/// marked, on every backend (on `SQLiteDB`, a transaction whose log starts
/// inside a savepoint included).
extension TransactionLogBehaviourTests {
    @Test(arguments: Backend.allCases)
    func transactionLogMarksTheCallsOfARolledBackSavepoint(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let spy = Spy()
        try fixture.db.write { tx in
            // The first call, and so the log of an SQLiteDB transaction,
            // begins inside a savepoint.
            try tx.inSavepoint {
                try spy.saw("in a rolled-back savepoint", tx)
                try tx.inSavepoint {
                    try spy.saw("in a committed savepoint inside it", tx)
                    return .commit
                }
                return .rollback
            }
            try spy.saw("outside", tx)
            try tx.inSavepoint {
                try spy.saw("in a committed savepoint", tx)
                return .commit
            }
            _ = try? tx.inSavepoint {
                try spy.saw("in a savepoint that threw", tx)
                throw TestError(id: 1)
            }
        }
        let records = spy.saw.callRecords
        #expect(records.map(\.arguments) == [
            "in a rolled-back savepoint", "in a committed savepoint inside it", "outside",
            "in a committed savepoint", "in a savepoint that threw",
        ])
        #expect(records.map(\.isInRolledBackSavepoint) == [true, true, false, false, true])
        let transaction = try #require(spy.saw.sharedTransaction)
        #expect(transaction.isCommittedWrite)
        #expect(transaction.calls.map(\.isInRolledBackSavepoint) == [true, true, false, false, true])
        #expect(!spy.saw.ranOnlyInCommittedWrites, "some calls were undone")
        #expect(spy.saw.neverRanInRolledBackTransactions)
        // On SQLiteDB the log begins inside the first savepoint, and hears
        // its end all the same.
        #expect(transaction.savepoints == LoggedTransaction.Savepoints(released: 2, rolledBack: 2))
    }
}
