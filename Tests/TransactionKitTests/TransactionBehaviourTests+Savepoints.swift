import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Savepoints (`tx.inSavepoint`): a nested scope of a write that commits or
/// rolls back alone, with the key-value store, the hooks and commit
/// observation, the same on every backend.
extension TransactionBehaviourTests {
    @Test(arguments: Backend.allCases)
    func aSavepointThatCommitsKeepsWhatItWrote(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        try fixture.db.write { tx in
            try fixture.store.setInt(1, key: "before", transaction: tx)
            try tx.inSavepoint {
                try fixture.store.setInt(2, key: "inside", transaction: tx)
                try fixture.store.setInt(20, key: "before", transaction: tx)
                return .commit
            }
            #expect(try fixture.store.getInt("inside", transaction: tx) == 2)
            try fixture.store.setInt(3, key: "after", transaction: tx)
        }
        #expect(try fixture.value("before") == 20)
        #expect(try fixture.value("inside") == 2)
        #expect(try fixture.value("after") == 3)
    }

    @Test(arguments: Backend.allCases)
    func aSavepointThatRollsBackUndoesItsWritesAndTheTransactionGoesOn(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let other = KeyValueStore(collection: "other")
        try fixture.db.write { tx in
            try fixture.store.setInt(1, key: "kept", transaction: tx)
            try other.setInt(1, key: "x", transaction: tx)
        }
        let seenAfterRollback = try fixture.db.write { tx in
            try fixture.store.setInt(2, key: "kept", transaction: tx)
            try tx.inSavepoint {
                try fixture.store.setInt(3, key: "kept", transaction: tx)
                try fixture.store.setInt(1, key: "lost", transaction: tx)
                try other.removeAll(transaction: tx)
                try fixture.messages.insert("lost", into: "message", tx)
                #expect(try fixture.store.getInt("kept", transaction: tx) == 3)
                #expect(try other.count(transaction: tx) == 0)
                return .rollback
            }
            let seen = [
                try fixture.store.getInt("kept", transaction: tx),
                try fixture.store.getInt("lost", transaction: tx),
                try other.getInt("x", transaction: tx),
            ]
            try fixture.store.setInt(4, key: "after", transaction: tx)
            return seen
        }
        #expect(seenAfterRollback == [2, nil, 1], "the transaction sees what it had before the savepoint")
        #expect(try fixture.value("kept") == 2)
        #expect(try fixture.value("lost") == nil)
        #expect(try fixture.value("after") == 4)
        #expect(try fixture.db.read { tx in try other.getInt("x", transaction: tx) } == 1)
        if let mock = fixture.db as? MockDB {
            #expect(mock.statistics == MockDB.Statistics(reads: 4, writes: 2, commits: 2, rollbacks: 0))
        }
    }

    @Test(arguments: Backend.allCases)
    func aThrowingSavepointRollsBackAndRethrowsTheSameError(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        var caught: (any Error)?
        try fixture.db.write { tx in
            try fixture.store.setInt(1, key: "before", transaction: tx)
            do {
                try tx.inSavepoint {
                    try fixture.store.setInt(2, key: "before", transaction: tx)
                    try fixture.store.setInt(1, key: "lost", transaction: tx)
                    throw TestError(id: 5)
                }
            } catch {
                caught = error
            }
        }
        #expect(caught as? TestError == TestError(id: 5))
        #expect(try fixture.value("before") == 1)
        #expect(try fixture.value("lost") == nil)

        // Not caught, the error rolls back the whole write.
        #expect(throws: TestError(id: 6)) {
            try fixture.db.write { tx in
                try fixture.store.setInt(9, key: "before", transaction: tx)
                try tx.inSavepoint {
                    throw TestError(id: 6)
                }
            }
        }
        #expect(try fixture.value("before") == 1)
    }

    @Test(arguments: Backend.allCases)
    func savepointsNestAndEachRollsBackAlone(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        try fixture.db.write { tx in
            // An inner savepoint that committed goes with its outer one.
            try tx.inSavepoint {
                try fixture.store.setInt(1, key: "outer rolled back", transaction: tx)
                try tx.inSavepoint {
                    try fixture.store.setInt(1, key: "inner committed", transaction: tx)
                    return .commit
                }
                return .rollback
            }
            // An inner savepoint that rolled back leaves its outer one.
            try tx.inSavepoint {
                try fixture.store.setInt(1, key: "outer committed", transaction: tx)
                try tx.inSavepoint {
                    try fixture.store.setInt(1, key: "inner rolled back", transaction: tx)
                    try fixture.store.setInt(2, key: "outer committed", transaction: tx)
                    try tx.inSavepoint {
                        try fixture.store.setInt(1, key: "innermost committed", transaction: tx)
                        return .commit
                    }
                    return .rollback
                }
                try tx.inSavepoint {
                    try fixture.store.setInt(1, key: "second inner committed", transaction: tx)
                    return .commit
                }
                return .commit
            }
        }
        #expect(try fixture.value("outer rolled back") == nil)
        #expect(try fixture.value("inner committed") == nil)
        #expect(try fixture.value("outer committed") == 1)
        #expect(try fixture.value("inner rolled back") == nil)
        #expect(try fixture.value("innermost committed") == nil)
        #expect(try fixture.value("second inner committed") == 1)
    }

    @Test(arguments: Backend.allCases)
    func hooksRegisteredInARolledBackSavepointAreDiscarded(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        try await fixture.db.write { tx in
            tx.addFinalization(key: "replaced in a rolled-back savepoint") { _ in log.append("first block") }
            tx.addFinalization(key: "replaced in a committed savepoint") { _ in log.append("old block") }
            tx.addSyncCompletion { log.append("completion before") }
            try tx.inSavepoint {
                tx.addFinalization(key: "replaced in a rolled-back savepoint") { _ in log.append("discarded block") }
                tx.addFinalization(key: "added in a rolled-back savepoint") { _ in log.append("discarded finalization") }
                tx.addSyncCompletion { log.append("discarded sync completion") }
                tx.addAsyncCompletion(on: DispatchQueue.global()) { log.append("discarded async completion") }
                try tx.inSavepoint {
                    tx.addSyncCompletion { log.append("discarded with its outer savepoint") }
                    return .commit
                }
                return .rollback
            }
            try tx.inSavepoint {
                tx.addFinalization(key: "replaced in a committed savepoint") { _ in log.append("new block") }
                tx.addSyncCompletion { log.append("kept completion") }
                return .commit
            }
            _ = try? tx.inSavepoint {
                tx.addSyncCompletion { log.append("discarded by a throw") }
                throw TestError(id: 1)
            }
        }
        try await waitForAsyncCompletions(of: fixture.db)
        #expect(log.events == ["first block", "new block", "completion before", "kept completion"])
    }

    @Test(arguments: Backend.allCases)
    func aSavepointInAFinalizationRollsBackAlone(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        try fixture.db.write { tx in
            tx.addFinalization(key: "f") { tx in
                try fixture.store.setInt(1, key: "finalized", transaction: tx)
                try tx.inSavepoint {
                    try fixture.store.setInt(1, key: "lost", transaction: tx)
                    tx.addSyncCompletion { log.append("discarded") }
                    return .rollback
                }
                tx.addSyncCompletion { log.append("kept") }
            }
        }
        #expect(log.events == ["kept"])
        #expect(try fixture.value("finalized") == 1)
        #expect(try fixture.value("lost") == nil)
    }

    @Test(arguments: Backend.allCases)
    func commitObserversHearOnlyWhatASavepointKept(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let queue = DispatchQueue(label: "savepoint observer")
        let received = Locked<[DBChanges]>([])
        let observation = fixture.db.observeCommits(
            tables: ["message", "audit"], keyValueCollections: ["kv", "other"], queue: queue
        ) { changes in
            received.withValue { $0.append(changes) }
        }
        defer { observation.cancel() }
        try fixture.db.write { tx in
            try tx.inSavepoint {
                try fixture.messages.insert("kept", into: "message", tx)
                return .commit
            }
            try tx.inSavepoint {
                try fixture.messages.insert("lost", into: "audit", tx)
                try KeyValueStore(collection: "other").setInt(1, key: "a", transaction: tx)
                return .rollback
            }
            try fixture.store.setInt(1, key: "a", transaction: tx)
        }
        // A write whose every change a savepoint rolled back changed nothing.
        try fixture.db.write { tx in
            try tx.inSavepoint {
                try fixture.messages.insert("lost", into: "message", tx)
                try fixture.store.setInt(2, key: "a", transaction: tx)
                return .rollback
            }
        }
        queue.sync {}
        #expect(received.value == [DBChanges(tables: ["message"], keyValueCollections: ["kv"])])
    }
}
