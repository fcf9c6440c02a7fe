import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// `MockDB` as an `AsyncDB`: what the generic behaviour suite cannot see
/// (statistics, commit observers, injected faults, its write gate, mocks).
@Suite("MockDB as an AsyncDB")
struct MockDBAsyncDBTests {
    struct Failure: Error {}

    let store = KeyValueStore(collection: "kv")

    @Test func countsAsyncBlocksLikeSyncOnes() async throws {
        let db = MockDB()
        try await db.read { _ in await Task.yield() }
        try await db.write { _ in await Task.yield() }
        _ = try? await db.write { _ in
            await Task.yield()
            throw Failure()
        }
        let value = try await db.writeOrRollBack { _ in
            await Task.yield()
            return .rollBack(1)
        }
        #expect(value == 1)
        #expect(db.statistics == MockDB.Statistics(reads: 1, writes: 3, commits: 1, rollbacks: 2))
    }

    @Test func observersHearAsyncCommitsAndNeverRollbacks() async throws {
        let db = MockDB()
        let queue = DispatchQueue(label: "observer")
        let heard = Locked<[DBChanges]>([])
        let observation = db.observeCommits(keyValueCollections: ["kv"], queue: queue) { changes in
            heard.withValue { $0.append(changes) }
        }
        defer { observation.cancel() }
        try await db.write { tx in
            await Task.yield()
            try store.setInt(1, key: "a", transaction: tx)
        }
        _ = try? await db.write { tx in
            try store.setInt(2, key: "a", transaction: tx)
            await Task.yield()
            throw Failure()
        }
        let rolledBack = try await db.writeOrRollBack { tx in
            try store.setInt(3, key: "a", transaction: tx)
            return .rollBack("dry run")
        }
        #expect(rolledBack == "dry run")
        queue.sync {}
        #expect(heard.value == [DBChanges(keyValueCollections: ["kv"])])
        #expect(db.keyValues(in: "kv") == ["a": 1])
    }

    @Test func anInjectedCommitFailureFailsAnAsyncWrite() async throws {
        let db = MockDB()
        db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "injected"))
        let log = Locked<[String]>([])
        let error = await #expect(throws: DBError.self) {
            try await db.write { tx in
                try store.setInt(1, key: "a", transaction: tx)
                tx.addFinalization(key: "f") { _ in log.withValue { $0.append("finalization") } }
                tx.addSyncCompletion { log.withValue { $0.append("completion") } }
            }
        }
        #expect(error?.kind == .diskFull)
        #expect(log.value == ["finalization"])
        #expect(db.keyValues(in: "kv").isEmpty)
    }

    @Test func closedAndReadOnlyDatabasesRefuseAsyncWrites() async throws {
        let readOnly = MockDB(isReadOnly: true)
        let refused = await #expect(throws: DBError.self) { try await readOnly.write { _ in await Task.yield() } }
        #expect(refused?.kind == .readOnly)
        try await readOnly.read { _ in await Task.yield() }

        let closed = MockDB()
        closed.close()
        let error = await #expect(throws: DBError.self) { try await closed.read { _ in await Task.yield() } }
        #expect(error?.kind == .closed)
    }

    /// On a single-threaded executor, a write waiting for a suspended write
    /// must suspend: if it blocked the one thread, the task that lets the
    /// first write finish could never run, and the test would hang.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test func aWaitingWriteSuspendsInsteadOfBlockingItsThread() async throws {
        let db = MockDB()
        let executor = SerialExecutor()
        let firstHoldsTheLock = AsyncSignal()
        let release = AsyncSignal()
        let order = Locked<[String]>([])
        let first = Task(executorPreference: executor) {
            try await db.write { tx in
                try store.setInt(1, key: "a", transaction: tx)
                firstHoldsTheLock.signal()
                await release.wait()
                order.withValue { $0.append("first commits") }
            }
        }
        await firstHoldsTheLock.wait()
        let second = Task(executorPreference: executor) {
            // An AsyncDB write, then a DB write with a synchronous block.
            try await db.write { tx in
                await Task.yield()
                order.withValue { $0.append("second (async block)") }
                try store.setInt(2, key: "a", transaction: tx)
            }
            try await db.write { @Sendable tx in
                order.withValue { $0.append("third (sync block)") }
                try store.setInt(3, key: "a", transaction: tx)
            }
        }
        let releaser = Task(executorPreference: executor) {
            await Task.yield()
            order.withValue { $0.append("released") }
            release.signal()
        }
        try await first.value
        try await second.value
        await releaser.value
        #expect(order.value == ["released", "first commits", "second (async block)", "third (sync block)"])
        #expect(db.keyValues(in: "kv") == ["a": 3])
    }

    /// Sync writes on plain threads and async writes in tasks share one
    /// write serialization.
    @Test func syncAndAsyncWritersSerialize() async throws {
        let db = MockDB()
        let rounds = 100
        let threadsDone = AsyncSignal()
        let store = self.store
        Thread.detachNewThread {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in 0..<rounds {
                    try! db.write { tx in
                        let count = try store.getInt("count", transaction: tx) ?? 0
                        try store.setInt(count + 1, key: "count", transaction: tx)
                    }
                }
            }
            threadsDone.signal()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<rounds {
                        try await db.write { tx in
                            let count = try store.getInt("count", transaction: tx) ?? 0
                            await Task.yield()
                            try store.setInt(count + 1, key: "count", transaction: tx)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        await threadsDone.wait()
        #expect(db.keyValues(in: "kv") == ["count": .integer(Int64(4 * rounds))])
    }

    /// A synchronous write inside the same task's async write would wait
    /// for itself forever: it is reported as a nested transaction.
    @Test func aSyncWriteNestedInAnAsyncWriteIsAMisuse() async throws {
        let db = MockDB()
        let thrown = Locked<(any Error)?>(nil)
        await withKnownIssue {
            _ = try? await db.write { tx in
                try store.setInt(1, key: "a", transaction: tx)
                await Task.yield()
                do {
                    try syncWrite(db)
                } catch {
                    thrown.setValue(error)
                }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("`write` called inside a `write` transaction of the same DB") }
        }
        #expect(thrown.value is DBMisuseError)
        #expect(db.keyValues(in: "kv") == ["a": 1], "the outer write went on")
    }

    /// `DB`'s async `read` and `write` (synchronous blocks) inside an async
    /// block of the same database and task are nested transactions too:
    /// the write would otherwise wait for the outer one forever.
    @Test func aDBAsyncTransactionNestedInAnAsyncBlockIsAMisuse() async throws {
        let db = MockDB()
        let syncAPI: any DB = db
        let thrown = Locked<[String]>([])
        await withKnownIssue {
            _ = try? await db.write { tx in
                try store.setInt(1, key: "a", transaction: tx)
                await Task.yield()
                do {
                    _ = try await syncAPI.read { _ in 0 }
                } catch {
                    thrown.withValue { $0.append("read: \(type(of: error))") }
                }
                do {
                    try await syncAPI.write { _ in }
                } catch {
                    thrown.withValue { $0.append("write: \(type(of: error))") }
                }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("inside a `write` transaction of the same DB") }
        }
        #expect(thrown.value == ["read: DBMisuseError", "write: DBMisuseError"])
        #expect(db.keyValues(in: "kv") == ["a": 1], "the outer write went on")
    }

    @Test func anUnstubbedMockFailsTheTestInAnAsyncBlock() async throws {
        let finder = CounterFinderMock()
        let thrown = Locked<(any Error)?>(nil)
        await withKnownIssue {
            do {
                _ = try await MockDB().read { tx in
                    await Task.yield()
                    return try finder.count(tx)
                }
            } catch {
                thrown.setValue(error)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("CounterFinderMock.count(_:) was called") }
        }
        #expect(thrown.value is UnimplementedError)
        finder.count.returns(4)
        #expect(try await MockDB().read { tx in
            await Task.yield()
            return try finder.count(tx)
        } == 4)
    }
}

/// A synchronous `write`, called from synchronous code (in an async
/// context Swift would pick the async overload).
private func syncWrite(_ db: MockDB) throws {
    try db.write { _ in }
}

private final class CounterFinderMock: Sendable {
    let count = MockMethod<Void, Int>()

    func count(_ tx: DBReadTransaction) throws -> Int {
        try count.call(tx, in: self)
    }
}

/// A task executor with exactly one thread.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
private final class SerialExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "MockDBAsyncDBTests.SerialExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
