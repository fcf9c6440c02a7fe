import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Rolling back on purpose with `writeOrRollBack`: the block's value comes
/// back, nothing persists, no hook runs; the same on every backend.
extension TransactionBehaviourTests {
    @Test(arguments: Backend.allCases)
    func writeOrRollBackReturnsTheValueAndKeepsNothingAndRunsNoHook(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        try await fixture.db.write { tx in try fixture.store.setInt(1, key: "kept", transaction: tx) }
        let value = try await fixture.db.writeOrRollBack { tx -> DBWriteOutcome<String> in
            try fixture.store.setInt(2, key: "kept", transaction: tx)
            try fixture.store.setInt(1, key: "lost", transaction: tx)
            try fixture.messages.insert("lost", into: "message", tx)
            tx.addFinalization(key: "f") { _ in log.append("finalization") }
            tx.addSyncCompletion { log.append("sync completion") }
            tx.addAsyncCompletion(on: DispatchQueue.global()) { log.append("async completion") }
            return .rollBack("dry run")
        }
        #expect(value == "dry run")
        #expect(pendingAsyncCompletions(of: fixture.db) == 0)
        try await waitForAsyncCompletions(of: fixture.db)
        #expect(log.events.isEmpty)
        #expect(try fixture.value("kept") == 1)
        #expect(try fixture.value("lost") == nil)
        if let mock = fixture.db as? MockDB {
            #expect(mock.statistics == MockDB.Statistics(reads: 2, writes: 2, commits: 1, rollbacks: 1))
        }
        // The database is usable afterwards.
        try await fixture.db.write { tx in try fixture.store.setInt(3, key: "kept", transaction: tx) }
        #expect(try fixture.value("kept") == 3)
    }

    @Test(arguments: Backend.allCases)
    func writeOrRollBackCommitsLikeWrite(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        let value = try fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Int> in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            tx.addFinalization(key: "f") { _ in log.append("finalization") }
            tx.addSyncCompletion { log.append("sync completion") }
            return .commit(7)
        }
        log.append("returned")
        #expect(value == 7)
        #expect(log.events == ["finalization", "sync completion", "returned"])
        #expect(try fixture.value("a") == 1)
    }

    @Test(arguments: Backend.allCases)
    func asyncWriteOrRollBackRollsBackOrCommits(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        let rolledBack = try await fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Int> in
            try store.setInt(1, key: "a", transaction: tx)
            return .rollBack(1)
        }
        let committed = try await fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Int> in
            try store.setInt(2, key: "b", transaction: tx)
            return .commit(2)
        }
        #expect(rolledBack == 1)
        #expect(committed == 2)
        let values = try await fixture.db.read { tx in
            [try store.getInt("a", transaction: tx), try store.getInt("b", transaction: tx)]
        }
        #expect(values == [nil, 2])
    }

    @Test(arguments: Backend.allCases)
    func aThrowingWriteOrRollBackRethrows(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        #expect(throws: TestError(id: 9)) {
            try fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Int> in
                try fixture.store.setInt(1, key: "a", transaction: tx)
                throw TestError(id: 9)
            }
        }
        #expect(try fixture.value("a") == nil)
    }

    /// Each `writeOrRollBack` decides for its own database only.
    @Test(arguments: Backend.allCases)
    func writeOrRollBackOnTwoDatabasesDecidesForEachAlone(_ backend: Backend) throws {
        let outer = try backend.makeFixture()
        let inner = try backend.makeFixture()
        let values = try outer.db.writeOrRollBack { outerTx -> DBWriteOutcome<[Int]> in
            try outer.store.setInt(1, key: "a", transaction: outerTx)
            let innerValue = try inner.db.writeOrRollBack { innerTx -> DBWriteOutcome<Int> in
                try inner.store.setInt(2, key: "a", transaction: innerTx)
                return .commit(2)
            }
            return .rollBack([1, innerValue])
        }
        #expect(values == [1, 2])
        #expect(try outer.value("a") == nil)
        #expect(try inner.value("a") == 2)
    }
}
