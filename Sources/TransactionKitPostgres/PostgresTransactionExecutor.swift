#if Postgres
import TransactionKit

/// The executor of one ``PostgresDB`` transaction: the jobs of its task
/// (and of the task's child tasks), run one at a time on a thread of
/// ``PostgresTransactionThreads`` that serves no other transaction
/// meanwhile.
///
/// The transaction's task prefers this executor from `BEGIN` to `COMMIT`
/// or `ROLLBACK` (`withTaskExecutorPreference`), so every nonisolated part
/// of the block, and the engine's work around it, runs on that thread. A
/// synchronous call that waits for the server there (the key-value store,
/// the synchronous `inSavepoint`) blocks that thread only: never a thread
/// of Swift's cooperative pool, which the transaction it may wait for
/// (one holding a row lock) needs in order to resume and end.
///
/// **Threads:** jobs are enqueued from any thread (postgres-nio's event
/// loops resume the task here); ``serve()`` runs them on the calling
/// thread. A job enqueued after ``finish()`` (what is left of the task once
/// its transaction ended) runs on the default executor.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class PostgresTransactionExecutor: TaskExecutor, Sendable {
    private struct State: Sendable {
        var jobs: [UnownedJob] = []
        var isFinished = false
    }

    private let state = LockedValue(State())

    /// Runs `body` with its task's jobs on a thread of `threads`, one that
    /// serves only this transaction until `body` returned.
    static func run<R>(on threads: PostgresTransactionThreads, _ body: () async throws -> R) async throws -> R {
        let executor = PostgresTransactionExecutor()
        threads.start { executor.serve() }
        defer { executor.finish() }
        return try await withTaskExecutorPreference(executor, operation: body)
    }

    // MARK: - TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let isServed = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.jobs.append(job)
            self.state.signal()
            return true
        }
        if !isServed {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    // MARK: - Serving

    private enum Next {
        case run(UnownedJob)
        case stop
    }

    /// Runs the jobs on the calling thread until ``finish()`` was called
    /// and no job is left.
    private func serve() {
        while true {
            let next = state.withLockWaiting { state -> Next? in
                if !state.jobs.isEmpty { return .run(state.jobs.removeFirst()) }
                return state.isFinished ? .stop : nil
            }
            guard case let .run(job) = next else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The transaction ended: the serving thread runs the jobs left (the
    /// one that called this, to its next suspension), then returns.
    private func finish() {
        state.withLock { state in
            state.isFinished = true
            self.state.signal()
        }
    }
}
#endif
