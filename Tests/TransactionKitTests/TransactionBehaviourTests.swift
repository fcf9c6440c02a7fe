import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// The contract of `DB`, written once and run against every backend.
@Suite("Transaction behaviour")
struct TransactionBehaviourTests {
    // MARK: Values and persistence

    @Test(arguments: Backend.allCases)
    func readAndWriteReturnTheBlockValue(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let written = try fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            return "written"
        }
        let read = try fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
        #expect(written == "written")
        #expect(read == 1)
    }

    @Test(arguments: Backend.allCases)
    func aWriteSeesItsOwnUncommittedChanges(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let seen = try fixture.db.write { tx in
            try fixture.store.setInt(7, key: "a", transaction: tx)
            return try fixture.store.getInt("a", transaction: tx)
        }
        #expect(seen == 7)
    }

    @Test(arguments: Backend.allCases)
    func aWriteTransactionIsAcceptedWhereAReadOneIsExpected(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        func readOnlyHelper(_ tx: DBReadTransaction) throws -> Int? {
            try fixture.store.getInt("a", transaction: tx)
        }
        let value = try fixture.db.write { tx in
            try fixture.store.setInt(3, key: "a", transaction: tx)
            return try readOnlyHelper(tx)
        }
        #expect(value == 3)
    }

    @Test(arguments: Backend.allCases)
    func twoDatabasesShareNothing(_ backend: Backend) throws {
        let first = try backend.makeFixture()
        let second = try backend.makeFixture()
        try first.db.write { tx in try first.store.setInt(1, key: "a", transaction: tx) }
        #expect(try second.value("a") == nil)
        #expect(try first.value("a") == 1)
    }

    // MARK: Rollback

    @Test(arguments: Backend.allCases)
    func aThrowingWriteRollsBackAndRethrowsTheSameError(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        try fixture.db.write { tx in try fixture.store.setInt(1, key: "kept", transaction: tx) }

        #expect(throws: TestError(id: 42)) {
            try fixture.db.write { tx in
                try fixture.store.setInt(2, key: "kept", transaction: tx)
                try fixture.store.setInt(1, key: "lost", transaction: tx)
                tx.addFinalization(key: "f") { _ in log.append("finalization") }
                tx.addSyncCompletion { log.append("sync completion") }
                tx.addAsyncCompletion(on: DispatchQueue.global()) { log.append("async completion") }
                throw TestError(id: 42)
            }
        }

        // An async completion that had been scheduled would either still be
        // pending or have logged already: both are checked, with no sleep.
        #expect(pendingAsyncCompletions(of: fixture.db) == 0)
        #expect(log.events.isEmpty)
        #expect(try fixture.value("kept") == 1)
        #expect(try fixture.value("lost") == nil)
    }

    @Test(arguments: Backend.allCases)
    func anAsyncTransactionOfACancelledTaskDoesNotBegin(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await fixture.db.write { tx in
                log.append("block")
                try fixture.store.setInt(1, key: "a", transaction: tx)
                tx.addSyncCompletion { log.append("completion") }
            }
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(log.events.isEmpty)
        let value = try await fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
        #expect(value == nil)
    }

    @Test(arguments: Backend.allCases)
    func aThrowingFinalizationRollsBackEverything(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        #expect(throws: TestError(id: 7)) {
            try fixture.db.write { tx in
                try fixture.store.setInt(1, key: "a", transaction: tx)
                tx.addFinalization(key: "write then fail") { tx in
                    try fixture.store.setInt(1, key: "b", transaction: tx)
                    throw TestError(id: 7)
                }
                tx.addSyncCompletion { log.append("sync completion") }
            }
        }
        #expect(try fixture.value("a") == nil)
        #expect(try fixture.value("b") == nil)
        #expect(log.events.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func theDatabaseIsUsableAfterARollback(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        _ = try? fixture.db.write { _ in throw TestError(id: 1) }
        try fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        #expect(try fixture.value("a") == 1)
    }

    // MARK: Finalizations and completions

    @Test(arguments: Backend.allCases)
    func hooksRunInTheDocumentedOrder(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        try fixture.db.write { tx in
            log.append("block")
            tx.addSyncCompletion { log.append("sync 1") }
            tx.addFinalization(key: "a") { _ in log.append("finalization a (first)") }
            tx.addFinalization(key: "b") { _ in log.append("finalization b") }
            tx.addFinalization(key: "a") { _ in log.append("finalization a (last)") }
            tx.addSyncCompletion { log.append("sync 2") }
        }
        log.append("write returned")
        #expect(log.events == [
            "block",
            "finalization a (last)",
            "finalization b",
            "sync 1",
            "sync 2",
            "write returned",
        ])
    }

    @Test(arguments: Backend.allCases)
    func finalizationsWriteInsideTheTransaction(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        try fixture.db.write { tx in
            try fixture.store.setInt(1, key: "count", transaction: tx)
            tx.addFinalization(key: "double") { tx in
                let count = try fixture.store.getInt("count", transaction: tx) ?? 0
                try fixture.store.setInt(count * 2, key: "count", transaction: tx)
            }
            try fixture.store.setInt(5, key: "count", transaction: tx)
        }
        #expect(try fixture.value("count") == 10)
    }

    @Test(arguments: Backend.allCases)
    func syncCompletionsRunAfterTheCommitAndMayOpenTransactions(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        nonisolated(unsafe) var seenByCompletion: Int?
        try fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            tx.addSyncCompletion {
                seenByCompletion = try? fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
                try? fixture.db.write { tx in try fixture.store.setInt(2, key: "b", transaction: tx) }
            }
        }
        #expect(seenByCompletion == 1)
        #expect(try fixture.value("b") == 2)
    }

    @Test(arguments: Backend.allCases)
    func asyncCompletionsRunOnTheNamedQueueAfterTheCommit(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let queue = DispatchQueue(label: "completions")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completions")
        let log = EventLog()
        try await fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            tx.addAsyncCompletion(on: queue) {
                log.append("on \(DispatchQueue.getSpecific(key: key) ?? "another queue")")
                let value = try? fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
                log.append("saw \(value.map(String.init) ?? "nothing")")
            }
            tx.addAsyncCompletion(on: queue) { log.append("second") }
        }
        try await waitForAsyncCompletions(of: fixture.db)
        #expect(log.events == ["on completions", "saw 1", "second"])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test(arguments: Backend.allCases)
    func asyncCompletionsRunOnTheNamedExecutor(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let executor = RecordingExecutor()
        let log = EventLog()
        try await fixture.db.write { tx in
            tx.addAsyncCompletion(on: executor) { log.append("ran") }
        }
        try await waitForAsyncCompletions(of: fixture.db)
        #expect(log.events == ["ran"])
        #expect(executor.jobCount >= 1)
    }

    @Test(arguments: Backend.allCases)
    func asyncVariantsRunSyncCompletionsBeforeReturning(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let log = EventLog()
        let result = try await fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            tx.addSyncCompletion { log.append("sync") }
            return 5
        }
        log.append("returned")
        let read = try await fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
        #expect(result == 5)
        #expect(read == 1)
        #expect(log.events == ["sync", "returned"])
    }

    @Test(arguments: Backend.allCases)
    func anAsyncWriteThatThrowsRollsBack(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        await #expect(throws: TestError(id: 3)) {
            try await fixture.db.write { tx in
                try fixture.store.setInt(1, key: "a", transaction: tx)
                throw TestError(id: 3)
            }
        }
        let read = try await fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
        #expect(read == nil)
    }

    // MARK: Validity and nesting across databases

    @Test(arguments: Backend.allCases)
    func aTransactionIsActiveOnlyInsideItsBlock(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        nonisolated(unsafe) var escaped: DBWriteTransaction?
        let wasActive = try fixture.db.write { tx in
            escaped = tx
            return tx.isActive
        }
        #expect(wasActive)
        #expect(escaped?.isActive == false)
    }

    @Test(arguments: Backend.allCases)
    func transactionsOfTwoDifferentDatabasesMayNest(_ backend: Backend) throws {
        let outer = try backend.makeFixture()
        let inner = try backend.makeFixture()
        try outer.db.write { outerTx in
            try outer.store.setInt(1, key: "a", transaction: outerTx)
            try inner.db.write { innerTx in try inner.store.setInt(2, key: "a", transaction: innerTx) }
        }
        #expect(try outer.value("a") == 1)
        #expect(try inner.value("a") == 2)
    }

    // MARK: Concurrency

    /// Write blocks never overlap: a read-modify-write of plain memory inside
    /// write blocks, with no lock of its own, loses no increment, and neither
    /// does a read-modify-write through the key-value store, on every backend
    /// (MockDB's store commits while the write lock is held).
    @Test(arguments: Backend.allCases)
    func concurrentWritesAreSerializedAndNoIncrementIsLost(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let tasks = 8
        let incrementsPerTask = 25
        let unguarded = UnguardedCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<incrementsPerTask {
                        try await fixture.db.write { tx in
                            unguarded.value += 1
                            let count = try fixture.store.getInt("count", transaction: tx) ?? 0
                            try fixture.store.setInt(count + 1, key: "count", transaction: tx)
                        }
                        _ = try await fixture.db.read { tx in try fixture.store.getInt("count", transaction: tx) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(unguarded.value == tasks * incrementsPerTask)
        #expect(try fixture.value("count") == tasks * incrementsPerTask)
    }
}

/// A counter with no synchronization of its own: only the serialization of
/// write transactions protects it.
final class UnguardedCounter: @unchecked Sendable {
    var value = 0
}

/// A counter behind a lock, for writes that run side by side.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

/// The async completions of any backend that are scheduled but not finished.
func pendingAsyncCompletions(of db: any DB) -> Int {
    switch db {
    case let db as MockDB: db.pendingAsyncCompletionCount
    case let db as SQLiteDB: db.pendingAsyncCompletionCount
    default: -1
    }
}

/// Waits for the async completions of any backend.
func waitForAsyncCompletions(of db: any DB) async throws {
    switch db {
    case let db as MockDB:
        await db.waitForAsyncCompletions()
        #expect(db.pendingAsyncCompletionCount == 0)
    case let db as SQLiteDB:
        await db.waitForAsyncCompletions()
        #expect(db.pendingAsyncCompletionCount == 0)
    default:
        Issue.record("unknown DB \(type(of: db))")
    }
}

/// A task executor that counts the jobs it runs.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class RecordingExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "RecordingExecutor")
    private let lock = NSLock()
    private var jobs = 0

    var jobCount: Int { lock.withLock { jobs } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs += 1 }
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
