import TransactionKit

/// Runs the async block of an ``SQLiteDB`` transaction (its ``/TransactionKit/AsyncDB``
/// side) on the thread of the GRDB connection that holds the transaction.
///
/// A GRDB `Database` may be used only on its connection's dispatch queue
/// (GRDB stops the process otherwise), while an async block resumes on
/// whatever thread its executor picks. So the backend enters the
/// connection's queue as a synchronous transaction does (through GRDB's
/// async API, which suspends the caller until the queue is free and blocks
/// no thread meanwhile), begins the transaction there, and then, instead of
/// running a synchronous block, **serves** this executor: it runs the jobs
/// of the transaction's task on the queue's thread until the block has
/// ended. The task prefers this executor while the block runs
/// (`withTaskExecutorPreference`), so every nonisolated part of the block,
/// each of its finders included, runs on the connection's thread, between
/// its suspensions; commit or rollback follow on the same thread.
///
/// **Threads:** while a transaction is open, its connection's queue keeps
/// one dispatch thread (not a thread of the cooperative pool) waiting for
/// the block's next job, as a synchronous transaction keeps its caller's
/// thread. Waiting for a connection suspends the task and holds no thread.
/// Code of the block isolated to an actor (the main actor) runs on that
/// actor, not here: it may call finders (which hop back), but must not use
/// the bridged `Database` itself.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SQLiteConnectionExecutor: TaskExecutor, @unchecked Sendable {
    private enum Phase {
        /// The backend has not entered the connection's queue yet.
        case waiting
        /// The connection's thread runs the jobs.
        case serving
        /// The block ended: the thread stops once the queue is empty.
        case finished
    }

    private enum Next {
        case run(UnownedJob)
        case stop
    }

    private struct State {
        var phase = Phase.waiting
        var jobs: [UnownedJob] = []
        /// The task that waits for the connection.
        var start: CheckedContinuation<ConnectionBox, any Error>?
        /// The connection, once served; an error, when entering failed.
        var started: Result<ConnectionBox, any Error>?
        var blockFailed = false
    }

    /// The connection, handed from its queue to the waiting task, which
    /// uses it only on that queue (this executor).
    private struct ConnectionBox: @unchecked Sendable {
        let connection: AnyObject?
    }

    /// Thrown by ``serve(_:)`` when the block threw, so that the
    /// synchronous transaction around it rolls back.
    struct BlockFailed: Error {}

    private let state = LockedValue(State())

    /// Runs `block` inside the transaction that `enter` opens on a
    /// connection's queue.
    ///
    /// - Parameters:
    ///   - block: The transaction's async body, given the connection; it
    ///     runs on the connection's thread.
    ///   - enter: Opens a transaction on a connection, and calls `serve`
    ///     inside it, on the connection's queue, with the connection. When
    ///     `serve` throws, the transaction must roll back and the error come
    ///     out of `enter`; when it returns, commit.
    /// - Returns: What `block` returned, once the transaction committed.
    /// - Throws: What `block` threw (after the rollback), or what `enter`
    ///   threw (opening or committing).
    static func run<R: Sendable>(
        _ block: @Sendable (AnyObject?) async throws -> R,
        enter: @escaping @Sendable (_ serve: @escaping @Sendable (AnyObject?) throws -> Void) async throws -> Void
    ) async throws -> R {
        let executor = SQLiteConnectionExecutor()
        return try await withThrowingTaskGroup(of: Void.self, returning: R.self) { group in
            group.addTask {
                do {
                    try await enter { connection in try executor.serve(connection) }
                } catch {
                    executor.enterFailed(error)
                    throw error
                }
            }
            // Throws (and the group cancels nothing: its task already
            // ended) when the connection could not be had.
            let connection = try await executor.waitForConnection().connection
            let outcome: Result<R, any Error>
            do {
                outcome = .success(try await withTaskExecutorPreference(executor) {
                    try await block(connection)
                })
            } catch {
                outcome = .failure(error)
            }
            executor.finish(blockFailed: { if case .failure = outcome { true } else { false } }())
            do {
                try await group.next()
            } catch is BlockFailed {
                // The rollback of the block's own failure, rethrown below.
            } catch {
                // Committing failed, or rolling back after the block threw
                // (the block's error wins then).
                if case .success = outcome { throw error }
            }
            return try outcome.get()
        }
    }

    // MARK: - TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let isServed = state.withLock { state -> Bool in
            guard state.phase != .finished else { return false }
            state.jobs.append(job)
            self.state.signal()
            return true
        }
        if !isServed {
            // After the block ended, what is left of the task (never its
            // transaction) runs on the default executor.
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    // MARK: - The connection's side

    /// Runs the task's jobs on the calling thread (the connection's) until
    /// the block has ended.
    ///
    /// - Throws: ``BlockFailed`` when the block threw.
    private func serve(_ connection: AnyObject?) throws {
        let start = state.withLock { state -> CheckedContinuation<ConnectionBox, any Error>? in
            state.phase = .serving
            state.started = .success(ConnectionBox(connection: connection))
            defer { state.start = nil }
            return state.start
        }
        start?.resume(returning: ConnectionBox(connection: connection))
        while true {
            let next = state.withLockWaiting { state -> Next? in
                if !state.jobs.isEmpty { return .run(state.jobs.removeFirst()) }
                return state.phase == .finished ? .stop : nil
            }
            guard case let .run(job) = next else { break }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
        if state.withLock({ $0.blockFailed }) {
            throw BlockFailed()
        }
    }

    /// Entering the connection's queue failed (closed database, busy
    /// database, cancelled task), or the transaction around ``serve(_:)``
    /// failed afterwards.
    private func enterFailed(_ error: any Error) {
        let start = state.withLock { state -> CheckedContinuation<ConnectionBox, any Error>? in
            guard state.started == nil else { return nil }
            state.started = .failure(error)
            defer { state.start = nil }
            return state.start
        }
        start?.resume(throwing: error)
    }

    // MARK: - The task's side

    private func waitForConnection() async throws -> ConnectionBox {
        try await withCheckedThrowingContinuation { continuation in
            let started = state.withLock { state -> Result<ConnectionBox, any Error>? in
                if state.started == nil { state.start = continuation }
                return state.started
            }
            if let started { continuation.resume(with: started) }
        }
    }

    /// The block ended: the connection's thread runs the jobs left, then
    /// returns to the transaction, which commits or rolls back.
    private func finish(blockFailed: Bool) {
        state.withLock { state in
            state.phase = .finished
            state.blockFailed = blockFailed
            self.state.signal()
        }
    }
}
