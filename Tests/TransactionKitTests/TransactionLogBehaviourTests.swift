import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// What a test sees of the transaction on every backend: identities, and
/// the transaction of each mock call with its outcome (on `SQLiteDB`, the
/// mock's first call starts logging the transaction it received).
@Suite("TransactionLog behaviour")
struct TransactionLogBehaviourTests {
    /// A spy on the real finders: records each call and its transaction.
    final class Spy: Sendable {
        let saw = MockMethod<String, Void>()

        init() { saw.returns() }

        func saw(_ what: String, _ tx: DBReadTransaction) throws {
            try saw.call(what, tx, in: self)
        }
    }

    @Test(arguments: Backend.allCases)
    func transactionLogIdentityIsOnePerTransaction(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let (first, again) = try fixture.db.read { tx in (tx.transactionID(), tx.transactionID()) }
        let write = try fixture.db.write { tx in tx.transactionID() }
        #expect(first == again)
        #expect(first != write)
    }

    @Test(arguments: Backend.allCases)
    func transactionLogCallsInOneReadShareItsTransaction(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let spy = Spy()
        let id = try fixture.db.read { tx in
            try spy.saw("count", tx)
            _ = try fixture.store.getInt("a", transaction: tx)
            try spy.saw("page", tx)
            return tx.transactionID()
        }
        let shared = try #require(spy.saw.sharedTransaction)
        #expect(shared.id == id)
        #expect(shared.kind == .read)
        #expect(shared.outcome == .ended)
        #expect(shared.calls.map(\.member) == [spy.saw.member, spy.saw.member])
    }

    @Test(arguments: Backend.allCases)
    func transactionLogOutcomesOfWrites(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let spy = Spy()
        try fixture.db.write { tx in
            try spy.saw("committed", tx)
            tx.addSyncCompletion {}
            try fixture.store.setInt(1, key: "a", transaction: tx)
        }
        _ = try? fixture.db.write { tx in
            try spy.saw("threw", tx)
            throw TestError(id: 1)
        }
        _ = try fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Void> in
            try spy.saw("rolled back", tx)
            return .rollBack(())
        }
        let transactions = spy.saw.transactions
        #expect(transactions.map { $0?.outcome } == [.committed, .threw, .rolledBack])
        #expect(transactions.map { $0?.kind } == [.write, .write, .write])
        #expect(transactions.first??.hooks == LoggedTransaction.Hooks(syncCompletions: 1))
        #expect(transactions.map { $0?.isRolledBack } == [false, true, true])
        #expect(!spy.saw.ranOnlyInCommittedWrites)
        #expect(!spy.saw.neverRanInRolledBackTransactions)
        #expect(Set(spy.saw.transactionIDs).count == 3)
    }
}

/// The same on every `AsyncDB` (PostgresDB with a server).
@Suite("TransactionLog behaviour (AsyncDB)")
struct AsyncTransactionLogBehaviourTests {
    @Test(arguments: AsyncBackend.allCases)
    func transactionLogAsyncOutcomesAndSharedTransaction(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let spy = TransactionLogBehaviourTests.Spy()
        let store = fixture.store
        try await fixture.db.write { tx in
            try spy.saw("first", tx)
            try await store.setInt(1, key: "a", in: "log", transaction: tx)
            try spy.saw("second", tx)
        }
        await #expect(throws: TestError(id: 2)) {
            try await fixture.db.write { tx in
                try spy.saw("threw", tx)
                throw TestError(id: 2)
            }
        }
        let transactions = spy.saw.transactions
        #expect(transactions.map { $0?.outcome } == [.committed, .committed, .threw])
        #expect(transactions[0]?.id == transactions[1]?.id)
        #expect(transactions[1]?.id != transactions[2]?.id)
    }
}
