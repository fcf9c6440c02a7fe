import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// Savepoints in the blocks of `AsyncDB` writes: the async `inSavepoint`,
/// and the synchronous one an async block may call, on every `AsyncDB`
/// (PostgreSQL included, with a server).
extension AsyncDBBehaviourTests {
    @Test(arguments: AsyncBackend.allCases)
    func anAsyncSavepointCommitsOrRollsBackAlone(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let store = fixture.store
        let seen = try await fixture.db.write { tx in
            try await store.setInt(1, key: "kept", transaction: tx)
            try await tx.inSavepoint {
                try await store.setInt(2, key: "kept", transaction: tx)
                await Task.yield()
                try await store.setInt(1, key: "lost", transaction: tx)
                return .rollback
            }
            try await tx.inSavepoint {
                await Task.yield()
                try await store.setInt(1, key: "committed", transaction: tx)
                return .commit
            }
            return [try await store.getInt("kept", transaction: tx), try await store.getInt("lost", transaction: tx)]
        }
        #expect(seen == [1, nil])
        #expect(try await fixture.value("kept") == 1)
        #expect(try await fixture.value("lost") == nil)
        #expect(try await fixture.value("committed") == 1)
    }

    @Test(arguments: AsyncBackend.allCases)
    func anAsyncSavepointThatThrowsRollsBackAndRethrows(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let store = fixture.store
        let log = EventLog()
        let caught = try await fixture.db.write { tx -> TestError? in
            try await store.setInt(1, key: "kept", transaction: tx)
            do {
                try await tx.inSavepoint {
                    try await store.setInt(1, key: "lost", transaction: tx)
                    tx.addSyncCompletion { log.append("discarded") }
                    try await tx.inSavepoint {
                        try await store.setInt(2, key: "lost", transaction: tx)
                        return .commit
                    }
                    await Task.yield()
                    throw TestError(id: 3)
                }
            } catch let error as TestError {
                return error
            }
            return nil
        }
        #expect(caught == TestError(id: 3))
        #expect(log.events.isEmpty)
        #expect(try await fixture.value("kept") == 1)
        #expect(try await fixture.value("lost") == nil)
    }

    @Test(arguments: AsyncBackend.allCases)
    func aSynchronousSavepointRunsInAnAsyncBlock(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let store = KeyValueStore(collection: "kv")
        try await fixture.db.write { tx in
            await Task.yield()
            try syncSavepoints(store, tx)
        }
        #expect(try await fixture.value("kept") == 1)
        #expect(try await fixture.value("lost") == nil)
    }

    /// Synchronous code that an async block calls: the synchronous
    /// `inSavepoint`, as a finder written for `DB` would call it.
    private func syncSavepoints(_ store: KeyValueStore, _ tx: DBWriteTransaction) throws {
        try tx.inSavepoint {
            try store.setInt(1, key: "kept", transaction: tx)
            return .commit
        }
        try tx.inSavepoint {
            try store.setInt(1, key: "lost", transaction: tx)
            return .rollback
        }
    }
}
