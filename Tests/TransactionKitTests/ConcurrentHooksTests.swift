import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Finalizations and completions while many writes run at once, from threads
/// and from tasks: each hook of a committed transaction runs exactly once,
/// and no hook of a rolled-back transaction ever runs.
@Suite("Hooks under concurrency")
struct ConcurrentHooksTests {
    /// How transaction `number` of a run ends.
    enum Outcome: CaseIterable {
        case commit
        /// The write block throws after registering every hook.
        case blockThrows
        /// The (last) finalization throws.
        case finalizationThrows

        init(_ number: Int) {
            switch number % 5 {
            case 1: self = .blockThrows
            case 3: self = .finalizationThrows
            default: self = .commit
            }
        }
    }

    /// Counts, per transaction number, how many times each hook ran.
    ///
    /// Locked with `NSLock` (a pthread mutex), not `Synchronization.Mutex`:
    /// on Linux a contended `Mutex` hands over through futex calls that
    /// ThreadSanitizer does not see, and it reports false races on the data
    /// it protects (37 of them here before the switch).
    final class HookCounts: @unchecked Sendable {
        enum Hook: Hashable, CaseIterable {
            case replacedFinalization, finalization, syncCompletion, queueCompletion, executorCompletion
            /// `write` rethrew the transaction's own error.
            case rethrown
        }

        private let lock = NSLock()
        private var counts: [Int: [Hook: Int]] = [:]

        func record(_ hook: Hook, _ number: Int) {
            lock.withLock { counts[number, default: [:]][hook, default: 0] += 1 }
        }

        func count(_ hook: Hook, _ number: Int) -> Int {
            lock.withLock { counts[number]?[hook] ?? 0 }
        }
    }

    /// One write: a row, a finalization registered twice under one key (the
    /// last wins), a sync completion, and async completions on a queue and
    /// on a task executor.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    static func write(
        _ number: Int,
        _ fixture: Fixture,
        _ counts: HookCounts,
        _ queue: DispatchQueue,
        _ executor: RecordingExecutor,
        _ tx: DBWriteTransaction
    ) throws {
        let outcome = Outcome(number)
        try fixture.store.setInt(number, key: "n\(number)", transaction: tx)
        tx.addFinalization(key: "check") { _ in counts.record(.replacedFinalization, number) }
        tx.addSyncCompletion { counts.record(.syncCompletion, number) }
        tx.addAsyncCompletion(on: queue) { counts.record(.queueCompletion, number) }
        tx.addAsyncCompletion(on: executor) { counts.record(.executorCompletion, number) }
        tx.addFinalization(key: "check") { tx in
            counts.record(.finalization, number)
            try fixture.store.setInt(number, key: "f\(number)", transaction: tx)
            if outcome == .finalizationThrows {
                throw TestError(id: number)
            }
        }
        if outcome == .blockThrows {
            throw TestError(id: number)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test(arguments: Backend.allCases)
    func eachHookOfACommittedWriteRunsExactlyOnceAndNoneOfARolledBackOne(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let counts = HookCounts()
        let queue = DispatchQueue(label: "completions", attributes: .concurrent)
        let executor = RecordingExecutor()
        let threadWriters = 4
        let taskWriters = 4
        let writesPerWriter = 25
        // Checked at the end: an issue recorded on a plain thread may not be
        // attributed to this test.
        let unexpectedErrors = EventLog()

        @Sendable func recordRethrown(_ error: any Error, _ number: Int) {
            if let error = error as? TestError, error.id == number {
                counts.record(.rethrown, number)
            } else {
                unexpectedErrors.append("write \(number) threw \(error)")
            }
        }

        // Writers on plain threads, with the synchronous API…
        let threadsDone = DispatchGroup()
        for writer in 0..<threadWriters {
            threadsDone.enter()
            Thread.detachNewThread {
                defer { threadsDone.leave() }
                for index in 0..<writesPerWriter {
                    let number = writer * writesPerWriter + index
                    do {
                        try fixture.db.write { tx in try Self.write(number, fixture, counts, queue, executor, tx) }
                    } catch {
                        recordRethrown(error, number)
                    }
                }
            }
        }
        // …and writers in tasks, with the async API, at the same time.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in threadWriters..<(threadWriters + taskWriters) {
                group.addTask {
                    for index in 0..<writesPerWriter {
                        let number = writer * writesPerWriter + index
                        do {
                            try await fixture.db.write { tx in try Self.write(number, fixture, counts, queue, executor, tx) }
                        } catch {
                            recordRethrown(error, number)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        await withCheckedContinuation { continuation in
            threadsDone.notify(queue: .global()) { continuation.resume() }
        }
        try await waitForAsyncCompletions(of: fixture.db)

        #expect(unexpectedErrors.events == [])
        let total = (threadWriters + taskWriters) * writesPerWriter
        var committedCount = 0
        for number in 0..<total {
            let committed = Outcome(number) == .commit
            committedCount += committed ? 1 : 0
            #expect(counts.count(.rethrown, number) == (committed ? 0 : 1), "write \(number)")
            // The replaced finalization never runs; the last one runs once
            // for every write that reached its end (even if it then throws).
            #expect(counts.count(.replacedFinalization, number) == 0, "write \(number)")
            #expect(counts.count(.finalization, number) == (Outcome(number) == .blockThrows ? 0 : 1), "write \(number)")
            for hook in [HookCounts.Hook.syncCompletion, .queueCompletion, .executorCompletion] {
                #expect(counts.count(hook, number) == (committed ? 1 : 0), "write \(number): \(hook)")
            }
            let (row, finalizationRow) = try await fixture.db.read { tx in
                (try fixture.store.getInt("n\(number)", transaction: tx), try fixture.store.getInt("f\(number)", transaction: tx))
            }
            #expect(row == (committed ? number : nil), "write \(number)")
            #expect(finalizationRow == (committed ? number : nil), "write \(number)")
        }
        #expect(committedCount == total * 3 / 5)
        #expect(executor.jobCount >= committedCount)
        if let mock = fixture.db as? MockDB {
            #expect(mock.commitCount == committedCount)
            #expect(mock.rollbackCount == total - committedCount)
        }
    }

    /// Only `MockDB` can make the commit itself fail on demand; the storage
    /// faults of `SQLiteDB` are covered by the SQLite fault tests.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
    @Test func aFailingCommitRunsNoCompletion() async throws {
        let db = MockDB()
        let counts = HookCounts()
        let executor = RecordingExecutor()
        db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "injected"))
        let error = await #expect(throws: DBError.self) {
            try await db.write { tx in
                tx.addFinalization(key: "f") { _ in counts.record(.finalization, 0) }
                tx.addSyncCompletion { counts.record(.syncCompletion, 0) }
                tx.addAsyncCompletion(on: DispatchQueue.global()) { counts.record(.queueCompletion, 0) }
                tx.addAsyncCompletion(on: executor) { counts.record(.executorCompletion, 0) }
            }
        }
        #expect(error?.kind == .diskFull)
        await db.waitForAsyncCompletions()
        #expect(counts.count(.finalization, 0) == 1)
        #expect(counts.count(.syncCompletion, 0) == 0)
        #expect(counts.count(.queueCompletion, 0) == 0)
        #expect(counts.count(.executorCompletion, 0) == 0)
        #expect(db.pendingAsyncCompletionCount == 0)
    }
}
