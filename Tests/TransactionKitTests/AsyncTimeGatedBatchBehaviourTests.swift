import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// `TimeGatedBatch` on every `AsyncDB` (MockDB; PostgresDB with a server),
/// with a clock the test advances.
@Suite("TimeGatedBatch behaviour (AsyncDB)")
struct AsyncTimeGatedBatchBehaviourTests {
    @Test(arguments: AsyncBackend.allCases)
    func timeGatedBatchAsyncEnumerateObjectsSplitsWhereTheClockSays(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let clock = ManualBatchClock()
        let seen = Locked<[(Int, DBTransactionID)]>([])
        let store = fixture.store
        try await TimeGatedBatch.enumerateObjects(Array(0..<9), db: fixture.db, yieldTxAfter: 1, clock: clock) {
            element, tx in
            let id = tx.transactionID()
            seen.withValue { $0.append((element, id)) }
            try await store.setInt(element, key: "e\(element)", in: "batch", transaction: tx)
            clock.advance(bySeconds: element == 4 ? 2 : 0.4)
        }
        #expect(TimeGatedBatchBehaviourTests.groups(seen.value) == [[0, 1, 2], [3, 4], [5, 6, 7], [8]])
        let count = try await fixture.db.read { tx in try await store.count(in: "batch", transaction: tx) }
        #expect(count == 9)
    }

    @Test(arguments: AsyncBackend.allCases)
    func timeGatedBatchAsyncEnumerateObjectsRollsBackOnlyTheTransactionThatThrew(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let clock = ManualBatchClock()
        let store = fixture.store
        await #expect(throws: TestError(id: 4)) {
            try await TimeGatedBatch.enumerateObjects(Array(0..<9), db: fixture.db, yieldTxAfter: 1, clock: clock) {
                element, tx in
                try await store.setInt(element, key: "e\(element)", in: "batch", transaction: tx)
                if element == 4 { throw TestError(id: 4) }
                clock.advance(bySeconds: 0.4)
            }
        }
        let keys = try await fixture.db.read { tx in try await store.allKeys(in: "batch", transaction: tx) }
        #expect(keys.sorted() == ["e0", "e1", "e2"])
    }

    @Test(arguments: AsyncBackend.allCases, [TimeGatedBatch.ErrorCompletion.commit, .rollBack])
    func timeGatedBatchAsyncProcessAllCountsAndCompletesTheLastTransaction(
        _ backend: AsyncBackend, _ completion: TimeGatedBatch.ErrorCompletion
    ) async throws {
        let fixture = try await backend.makeFixture()
        let clock = ManualBatchClock()
        let store = fixture.store
        let sizes = Locked([3, 3, 3, 1, 0])
        let processed = try await TimeGatedBatch.processAll(db: fixture.db, yieldTxAfter: 1, clock: clock) { _ in
            clock.advance(bySeconds: 0.6)
            return sizes.withValue { $0.removeFirst() }
        }
        #expect(processed == 10)

        let batch = Locked(0)
        await #expect(throws: TestError(id: 4)) {
            try await TimeGatedBatch.processAll(
                db: fixture.db, yieldTxAfter: 1, errorTxCompletion: completion, clock: clock
            ) { tx in
                let number = batch.withValue { $0 += 1; return $0 }
                try await store.setInt(number, key: "b\(number)", in: "batch", transaction: tx)
                if number == 4 { throw TestError(id: 4) }
                clock.advance(bySeconds: 0.6)
                return 1
            }
        }
        let keys = try await fixture.db.read { tx in try await store.allKeys(in: "batch", transaction: tx) }
        #expect(keys.sorted() == (completion == .commit ? ["b1", "b2", "b3", "b4"] : ["b1", "b2"]))
    }
}
