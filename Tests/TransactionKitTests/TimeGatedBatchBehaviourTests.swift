import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// `TimeGatedBatch` on every `DB`, with a clock the test advances: the
/// test decides where the work splits, and reads the split back from the
/// transactions' identities.
@Suite("TimeGatedBatch behaviour")
struct TimeGatedBatchBehaviourTests {
    /// Which elements (or batches) ran in the same transaction, in order.
    static func groups(_ ids: [(Int, DBTransactionID)]) -> [[Int]] {
        var groups: [[Int]] = []
        var last: DBTransactionID?
        for (element, id) in ids {
            if id == last { groups[groups.count - 1].append(element) } else { groups.append([element]) }
            last = id
        }
        return groups
    }

    @Test(arguments: Backend.allCases)
    func timeGatedBatchEnumerateObjectsSplitsWhereTheClockSays(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let clock = ManualBatchClock()
        var seen: [(Int, DBTransactionID)] = []
        // 0.4 s an element, 2 s for element 4: a transaction ends once 1 s
        // has elapsed, after elements 2, 4 and 7, and with the last one.
        try TimeGatedBatch.enumerateObjects(0..<9, db: fixture.db, yieldTxAfter: 1, clock: clock) { element, tx in
            seen.append((element, tx.transactionID()))
            try fixture.store.setInt(element, key: "e\(element)", transaction: tx)
            clock.advance(bySeconds: element == 4 ? 2 : 0.4)
        }
        #expect(Self.groups(seen) == [[0, 1, 2], [3, 4], [5, 6, 7], [8]])
        for element in 0..<9 {
            #expect(try fixture.value("e\(element)") == element)
        }
    }

    @Test(arguments: Backend.allCases)
    func timeGatedBatchEnumerateObjectsGivesEachElementATransactionWhenTheLimitIsZero(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        var seen: [(Int, DBTransactionID)] = []
        try TimeGatedBatch.enumerateObjects([7, 8, 9], db: fixture.db, yieldTxAfter: 0, clock: ManualBatchClock()) {
            element, tx in seen.append((element, tx.transactionID()))
        }
        #expect(Self.groups(seen) == [[7], [8], [9]])
    }

    @Test(arguments: Backend.allCases)
    func timeGatedBatchEnumerateObjectsOfNothingOpensNoTransaction(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        var calls = 0
        try TimeGatedBatch.enumerateObjects([Int](), db: fixture.db, clock: ManualBatchClock()) { _, _ in calls += 1 }
        #expect(calls == 0)
        if let mock = fixture.db as? MockDB {
            #expect(mock.writeCount == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func timeGatedBatchEnumerateObjectsRollsBackOnlyTheTransactionThatThrew(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let clock = ManualBatchClock()
        var visited: [Int] = []
        #expect(throws: TestError(id: 4)) {
            try TimeGatedBatch.enumerateObjects(0..<9, db: fixture.db, yieldTxAfter: 1, clock: clock) { element, tx in
                visited.append(element)
                try fixture.store.setInt(element, key: "e\(element)", transaction: tx)
                if element == 4 { throw TestError(id: 4) }
                clock.advance(bySeconds: 0.4)
            }
        }
        // [0, 1, 2] committed; [3, 4] rolled back; nothing read after 4.
        #expect(visited == [0, 1, 2, 3, 4])
        #expect(try (0..<5).map { try fixture.value("e\($0)") } == [0, 1, 2, nil, nil])
        if let mock = fixture.db as? MockDB {
            #expect(mock.transactionLog.writes.map(\.outcome) == [.committed, .threw])
        }
    }

    @Test(arguments: Backend.allCases)
    func timeGatedBatchProcessAllRunsBatchesUntilOneIsEmpty(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let clock = ManualBatchClock()
        var sizes = [3, 3, 3, 1, 0, 5]
        var seen: [(Int, DBTransactionID)] = []
        var batch = 0
        // 0.6 s a batch: a transaction ends after every second batch.
        let processed = try TimeGatedBatch.processAll(db: fixture.db, yieldTxAfter: 1, clock: clock) { tx in
            batch += 1
            seen.append((batch, tx.transactionID()))
            try fixture.store.setInt(batch, key: "b\(batch)", transaction: tx)
            clock.advance(bySeconds: 0.6)
            return sizes.removeFirst()
        }
        #expect(processed == 10)
        #expect(Self.groups(seen) == [[1, 2], [3, 4], [5]])
        #expect(sizes == [5])
        // The transaction whose batch found nothing left commits too.
        #expect(try fixture.value("b5") == 5)
    }

    @Test(arguments: Backend.allCases, [TimeGatedBatch.ErrorCompletion.commit, .rollBack])
    func timeGatedBatchProcessAllCommitsOrRollsBackTheLastTransactionOnError(
        _ backend: Backend, _ completion: TimeGatedBatch.ErrorCompletion
    ) throws {
        let fixture = try backend.makeFixture()
        let clock = ManualBatchClock()
        var batch = 0
        #expect(throws: TestError(id: 4)) {
            try TimeGatedBatch.processAll(
                db: fixture.db, yieldTxAfter: 1, errorTxCompletion: completion, clock: clock
            ) { tx in
                batch += 1
                try fixture.store.setInt(batch, key: "b\(batch)", transaction: tx)
                if batch == 4 { throw TestError(id: 4) }
                clock.advance(bySeconds: 0.6)
                return 1
            }
        }
        // Batches 1 and 2 committed in the first transaction; 3 and 4 (up
        // to the throw) ran in the last one.
        let last = completion == .commit ? [3, 4] : [nil, nil]
        #expect(try (1...4).map { try fixture.value("b\($0)") } == [1, 2] + last)
        if let mock = fixture.db as? MockDB {
            #expect(mock.transactionLog.writes.map(\.outcome) == [.committed, completion == .commit ? .committed : .threw])
        }
    }
}
