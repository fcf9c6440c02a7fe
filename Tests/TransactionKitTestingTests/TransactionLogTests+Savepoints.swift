import Dispatch
import Testing
import TransactionKit
import TransactionKitTesting

/// What a `MockDB` test sees of savepoints in the transaction log.
extension TransactionLogTests {
    @Test func transactionLogDropsTheHooksOfARolledBackSavepointAndMarksItsCalls() throws {
        try db.write { tx in
            try finder.post(1, amount: 5, tx)
            tx.addFinalization(key: "kept") { _ in }
            try tx.inSavepoint {
                try finder.post(2, amount: 7, tx)
                notifier.notify(2)
                tx.addFinalization(key: "discarded") { _ in }
                tx.addSyncCompletion {}
                tx.addAsyncCompletion(on: .global()) {}
                return .rollback
            }
            try tx.inSavepoint {
                notifier.notify(1)
                tx.addSyncCompletion {}
                return .commit
            }
        }
        let log = db.transactionLog
        let write = try #require(log.transactions.first)
        #expect(write.isCommittedWrite)
        #expect(write.hooks == LoggedTransaction.Hooks(finalizations: ["kept"], syncCompletions: 1))
        #expect(write.savepoints == LoggedTransaction.Savepoints(released: 1, rolledBack: 1))
        #expect(write.calls.map(\.member) == [finder.post.member, finder.post.member, notifier.notify.member, notifier.notify.member])
        #expect(write.calls.map(\.isInRolledBackSavepoint) == [false, true, true, false])
        #expect(log.callsInRolledBackSavepoints.map(\.member) == [finder.post.member, notifier.notify.member])
        #expect(log.callsInRolledBackTransactions.isEmpty, "the transaction committed")
        #expect(finder.post.callRecords.map(\.isInRolledBackSavepoint) == [false, true])
        #expect(!finder.post.ranOnlyInCommittedWrites)
        #expect(log.callsInRolledBackSavepoints.first?.description.hasSuffix("(rolled back by a savepoint)") == true)
    }

    @Test func transactionLogKeepsItsMarksAfterAReset() throws {
        try db.write { tx in try finder.post(1, amount: 1, tx) }
        db.resetTransactionLog()
        try db.write { tx in
            try tx.inSavepoint {
                try finder.post(2, amount: 2, tx)
                return .rollback
            }
            try finder.post(3, amount: 3, tx)
        }
        #expect(db.transactionLog.calls.map(\.isInRolledBackSavepoint) == [true, false])
        #expect(finder.post.callRecords.map(\.isInRolledBackSavepoint) == [false, true, false])
    }
}
