import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// The contract of `AsyncDB`, written once against `any AsyncDB` and run on
/// every implementation (`AsyncBackend`).
@Suite("AsyncDB behaviour")
struct AsyncDBBehaviourTests {
    // MARK: Values, commit and rollback

    @Test(arguments: AsyncBackend.allCases)
    func readAndWriteReturnTheBlockValueAndCommit(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let written = try await fixture.db.write { tx in
            try await fixture.store.setInt(7, key: "a", transaction: tx)
            return "written"
        }
        #expect(written == "written")
        let read = try await fixture.db.read { tx in try await fixture.store.getInt("a", transaction: tx) }
        #expect(read == 7)
    }

    @Test(arguments: AsyncBackend.allCases)
    func aWriteSeesItsOwnChangesAcrossSuspensions(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let seen = try await fixture.db.write { tx in
            try await fixture.store.setInt(1, key: "a", transaction: tx)
            await Task.yield()
            try await Task.sleep(nanoseconds: 2_000_000)
            try await fixture.store.setInt(2, key: "b", transaction: tx)
            await Task.yield()
            return [try await fixture.store.getInt("a", transaction: tx), try await fixture.store.getInt("b", transaction: tx)]
        }
        #expect(seen == [1, 2])
        #expect(try await fixture.value("a") == 1)
        #expect(try await fixture.value("b") == 2)
    }

    @Test(arguments: AsyncBackend.allCases)
    func aThrowingWriteRollsBackAndRethrowsTheSameError(_ backend: AsyncBackend) async throws {
        struct Boom: Error, Equatable {}
        let fixture = try await backend.makeFixture()
        let log = EventLog()
        await #expect(throws: Boom()) {
            try await fixture.db.write { tx in
                try await fixture.store.setInt(1, key: "a", transaction: tx)
                tx.addFinalization(key: "f") { _ in log.append("finalization") }
                tx.addSyncCompletion { log.append("completion") }
                await Task.yield()
                throw Boom()
            }
        }
        #expect(try await fixture.value("a") == nil)
        #expect(log.events.isEmpty, "no hook runs after a rollback")
        // The database is usable afterwards.
        try await fixture.db.write { tx in try await fixture.store.setInt(2, key: "a", transaction: tx) }
        #expect(try await fixture.value("a") == 2)
    }

    @Test(arguments: AsyncBackend.allCases)
    func aThrowingFinalizationRollsBackEverything(_ backend: AsyncBackend) async throws {
        struct Boom: Error {}
        let fixture = try await backend.makeFixture()
        let log = EventLog()
        await #expect(throws: Boom.self) {
            try await fixture.db.write { tx in
                try await fixture.store.setInt(1, key: "a", transaction: tx)
                tx.addFinalization(key: "f") { _ in throw Boom() }
                tx.addSyncCompletion { log.append("completion") }
            }
        }
        #expect(try await fixture.value("a") == nil)
        #expect(log.events.isEmpty)
    }

    // MARK: Hooks

    @Test(arguments: AsyncBackend.allCases)
    func hooksRunInTheOrderOfTheSyncDB(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let log = EventLog()
        try await fixture.db.write { tx in
            Self.registerFirstHooks(tx, log)
            await Task.yield()
            Self.registerMoreHooks(tx, log)
        }
        log.append("write returned")
        #expect(log.events == [
            "block",
            "finalization a (last)",
            "finalization b",
            "sync 1",
            "sync 2",
            "sync from finalization",
            "write returned",
        ])

        // The same hooks through `DB` (a synchronous block), when the
        // backend is one.
        if let syncDB = fixture.syncDB {
            let syncLog = EventLog()
            try await syncDB.write { tx in
                Self.registerFirstHooks(tx, syncLog)
                Self.registerMoreHooks(tx, syncLog)
            }
            syncLog.append("write returned")
            #expect(syncLog.events == log.events)
        }
    }

    static func registerFirstHooks(_ tx: DBWriteTransaction, _ log: EventLog) {
        log.append("block")
        tx.addSyncCompletion { log.append("sync 1") }
        tx.addFinalization(key: "a") { _ in log.append("finalization a (first)") }
    }

    static func registerMoreHooks(_ tx: DBWriteTransaction, _ log: EventLog) {
        tx.addFinalization(key: "b") { tx in
            log.append("finalization b")
            tx.addSyncCompletion { log.append("sync from finalization") }
        }
        tx.addFinalization(key: "a") { _ in log.append("finalization a (last)") }
        tx.addSyncCompletion { log.append("sync 2") }
    }

    /// Finalizations are synchronous blocks: on `MockDB` they write through
    /// the `KeyValueStore`. A `PostgresDB` finalization cannot await the
    /// server, so it cannot run SQL, and this test runs on `MockDB` only.
    @Test func finalizationsWriteInsideTheTransaction() async throws {
        let db = MockDB()
        let store = KeyValueStore(collection: "kv")
        try await db.write { tx in
            try store.setInt(1, key: "count", transaction: tx)
            tx.addFinalization(key: "double") { tx in
                let count = try store.getInt("count", transaction: tx) ?? 0
                try store.setInt(count * 2, key: "count", transaction: tx)
            }
            await Task.yield()
            try store.setInt(5, key: "count", transaction: tx)
        }
        #expect(try await db.read { tx in try store.getInt("count", transaction: tx) } == 10)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test(arguments: AsyncBackend.allCases)
    func asyncCompletionsRunAfterTheCommit(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let executor = RecordingExecutor()
        let done = AsyncSignal()
        let seen = Locked<Int?>(nil)
        try await fixture.db.write { tx in
            try await fixture.store.setInt(3, key: "a", transaction: tx)
            tx.addAsyncCompletion(on: executor) {
                seen.setValue(try? await fixture.value("a"))
                done.signal()
            }
        }
        await done.wait()
        #expect(seen.value == 3, "the completion sees the committed value")
        #expect(executor.jobCount >= 1)
    }

    // MARK: Rolling back on purpose

    @Test(arguments: AsyncBackend.allCases)
    func rollingBackOnPurposeReturnsTheValueAndRunsNoHook(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let log = EventLog()
        let report = try await fixture.db.writeOrRollBack { tx in
            try await fixture.store.setInt(1, key: "a", transaction: tx)
            tx.addFinalization(key: "f") { _ in log.append("finalization") }
            tx.addSyncCompletion { log.append("completion") }
            await Task.yield()
            return .rollBack("dry run: 1 change")
        }
        #expect(report == "dry run: 1 change")
        #expect(log.events.isEmpty)
        #expect(try await fixture.value("a") == nil)

        let committed = try await fixture.db.writeOrRollBack { tx in
            try await fixture.store.setInt(2, key: "a", transaction: tx)
            tx.addSyncCompletion { log.append("completion") }
            return .commit(42)
        }
        #expect(committed == 42)
        #expect(log.events == ["completion"])
        #expect(try await fixture.value("a") == 2)
    }

    @Test(arguments: AsyncBackend.allCases)
    func aThrowingWriteOrRollBackRethrows(_ backend: AsyncBackend) async throws {
        struct Boom: Error {}
        let fixture = try await backend.makeFixture()
        await #expect(throws: Boom.self) {
            let _: Int = try await fixture.db.writeOrRollBack { tx in
                try await fixture.store.setInt(1, key: "a", transaction: tx)
                throw Boom()
            }
        }
        #expect(try await fixture.value("a") == nil)
    }

    // MARK: Suspending blocks

    /// A block may resume on another thread: the transaction follows its
    /// task, not its thread. (`SQLiteDB` runs the block's nonisolated code
    /// on the connection's thread, where GRDB allows the connection: its
    /// storage is used once the block is back there.)
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test(arguments: AsyncBackend.allCases)
    func aBlockThatResumesOnAnotherThreadKeepsItsTransaction(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let executor = RecordingExecutor()
        let threads = try await fixture.db.write { tx in
            try await fixture.store.setInt(1, key: "a", transaction: tx)
            let before = currentThreadNumber()
            let after = try await withTaskExecutorPreference(executor) {
                try await Task.sleep(nanoseconds: 1_000_000)
                tx.preconditionActive()
                if !backend.bindsConnectionsToThreads {
                    try await fixture.store.setInt(2, key: "a", transaction: tx)
                }
                tx.addSyncCompletion {}
                return currentThreadNumber()
            }
            #expect(tx.isActive)
            try await fixture.store.setInt(3, key: "b", transaction: tx)
            if backend.bindsConnectionsToThreads {
                try await fixture.store.setInt(2, key: "a", transaction: tx)
            }
            return (before, after)
        }
        #expect(threads.0 != threads.1, "the block did change threads")
        #expect(try await fixture.value("a") == 2)
        #expect(try await fixture.value("b") == 3)
    }

    /// On `SQLiteDB`, the block's nonisolated code runs on the thread of
    /// the connection that holds its transaction, before and after each
    /// suspension, and never on a thread of the cooperative pool.
    @Test(arguments: AsyncBackend.allCases.filter(\.bindsConnectionsToThreads))
    func anSQLiteBlockResumesOnItsConnectionThread(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        for _ in 0..<3 {
            let threads = try await fixture.db.write { tx in
                var threads = [currentThreadNumber()]
                try await fixture.store.setInt(1, key: "a", transaction: tx)
                try await Task.sleep(nanoseconds: 1_000_000)
                threads.append(currentThreadNumber())
                await Task.yield()
                _ = try await fixture.store.getInt("a", transaction: tx)
                threads.append(currentThreadNumber())
                return threads
            }
            #expect(Set(threads).count == 1, "one thread for the whole block: \(threads)")
        }
    }

    @Test(arguments: AsyncBackend.allCases)
    func aCancelledTaskRollsBackItsSuspendedWrite(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let started = AsyncSignal()
        let log = EventLog()
        let task = Task {
            try await fixture.db.write { tx in
                try await fixture.store.setInt(1, key: "a", transaction: tx)
                tx.addSyncCompletion { log.append("completion") }
                started.signal()
                while !Task.isCancelled {
                    await Task.yield()
                }
                return 1
            }
        }
        await started.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await fixture.value("a") == nil)
        #expect(log.events.isEmpty)
    }
}
