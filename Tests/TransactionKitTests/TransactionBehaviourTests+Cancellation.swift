import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// A task cancelled while its transaction's block runs: the same outcome on
/// every backend.
///
/// Serialized: on `MockDB` the block runs on the test's own cooperative
/// pool, and each case holds one of its threads until it is cancelled.
extension TransactionBehaviourTests {
@Suite("Cancellation", .serialized)
struct Cancellation {
    @Test(arguments: Backend.allCases)
    func aWriteCancelledWhileItsBlockRunsRollsBackAndThrowsCancellation(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let gate = CancellationGate()
        let hooks = EventLog()
        let task = Task { [db = fixture.db, store = fixture.store] in
            try await db.write { tx in
                try store.setInt(1, key: "a", transaction: tx)
                tx.addFinalization(key: "f") { _ in hooks.append("finalization") }
                tx.addSyncCompletion { hooks.append("sync completion") }
                tx.addAsyncCompletion(on: DispatchQueue.global()) { hooks.append("async completion") }
                gate.blockStartedThenWaitForCancellation()
                return "committed"
            }
        }
        try await gate.cancelWhenTheBlockRuns(task)
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try fixture.value("a") == nil, "nothing the cancelled write wrote persists")
        #expect(hooks.events.isEmpty, "no finalization or completion runs")
        // The database is fine afterwards.
        try await fixture.db.write { tx in try fixture.store.setInt(2, key: "a", transaction: tx) }
        #expect(try fixture.value("a") == 2)
    }

    @Test(arguments: Backend.allCases)
    func aReadCancelledWhileItsBlockRunsThrowsCancellation(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let gate = CancellationGate()
        let task = Task { [db = fixture.db] in
            try await db.read { _ in
                gate.blockStartedThenWaitForCancellation()
                return 42
            }
        }
        try await gate.cancelWhenTheBlockRuns(task)
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
}

/// Lets a test cancel a task exactly while its transaction's block runs:
/// the block says it started, the test cancels the task, then lets the block
/// return. Both sides wait on explicit flags, never on a guessed delay.
final class CancellationGate: Sendable {
    private let started = AtomicFlag(false)
    private let cancelled = AtomicFlag(false)

    /// Called by the block: waits until the task is cancelled.
    func blockStartedThenWaitForCancellation() {
        started.store(true, ordering: .releasing)
        while !cancelled.load(ordering: .acquiring) {
            usleep(100)
        }
    }

    /// Called by the test: cancels `task` once its block runs.
    ///
    /// The watch runs on a thread of its own, not on the cooperative pool:
    /// on `MockDB` the block holds one of the pool's threads (two on a
    /// 2-core machine), and tests running in parallel may hold the other, so
    /// a watcher on the pool could find no thread while the block waits
    /// for it.
    func cancelWhenTheBlockRuns<T>(_ task: Task<T, any Error>) async throws {
        let watcher = Thread { [self] in
            while !started.load(ordering: .acquiring) {
                usleep(100)
            }
            task.cancel()
            cancelled.store(true, ordering: .releasing)
        }
        watcher.start()
    }
}
