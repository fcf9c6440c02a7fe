import Synchronization
import TransactionKit

/// The storage side of ``MockDB``: no storage, just counters, a write lock
/// and injected faults.
struct MockBackend: TransactionBackend {
    struct State {
        var statistics = MockDB.Statistics()
        var nextCommitFailure: DBError?
    }

    let label: String
    let state = SharedState()
    var isMock: Bool { true }

    /// Reference storage so that the struct stays cheap to copy.
    ///
    /// The counters are atomics, so that a transaction costs a few atomic
    /// additions instead of a lock round trip per counter (an empty `MockDB`
    /// transaction is meant to cost well under 100 ns). ``withLock(_:)``
    /// keeps the simple `inout State` view for inspection and fault
    /// injection: it hands out a snapshot and applies what the body changed
    /// as differences, so that it never erases an increment made meanwhile
    /// by a transaction on another thread.
    final class SharedState: Sendable {
        private let reads = Atomic<Int>(0)
        private let writes = Atomic<Int>(0)
        private let commits = Atomic<Int>(0)
        private let rollbacks = Atomic<Int>(0)
        /// Whether `nextCommitFailure` is set: the commit path reads this
        /// flag and takes the lock only when a failure was injected.
        private let hasCommitFailure = Atomic<Bool>(false)
        private let nextCommitFailure = Mutex<DBError?>(nil)
        /// Serializes write transactions, as SQLite does.
        let writeLock = Mutex(())

        func withLock<R>(_ body: (inout State) -> R) -> R {
            nextCommitFailure.withLock { failure in
                let before = MockDB.Statistics(
                    reads: reads.load(ordering: .relaxed),
                    writes: writes.load(ordering: .relaxed),
                    commits: commits.load(ordering: .relaxed),
                    rollbacks: rollbacks.load(ordering: .relaxed))
                var state = State(statistics: before, nextCommitFailure: failure)
                let result = body(&state)
                let after = state.statistics
                if after != before {
                    reads.wrappingAdd(after.reads &- before.reads, ordering: .relaxed)
                    writes.wrappingAdd(after.writes &- before.writes, ordering: .relaxed)
                    commits.wrappingAdd(after.commits &- before.commits, ordering: .relaxed)
                    rollbacks.wrappingAdd(after.rollbacks &- before.rollbacks, ordering: .relaxed)
                }
                failure = state.nextCommitFailure
                hasCommitFailure.store(failure != nil, ordering: .releasing)
                return result
            }
        }

        func didBeginRead() {
            reads.wrappingAdd(1, ordering: .relaxed)
        }

        func didBeginWrite() {
            writes.wrappingAdd(1, ordering: .relaxed)
        }

        func didRollBack() {
            rollbacks.wrappingAdd(1, ordering: .relaxed)
        }

        /// Counts the commit, or the rollback when a commit failure was
        /// injected, which it then returns (once).
        func commitOrInjectedFailure() -> DBError? {
            if hasCommitFailure.load(ordering: .acquiring) {
                let failure = nextCommitFailure.withLock { failure -> DBError? in
                    defer { failure = nil }
                    hasCommitFailure.store(false, ordering: .releasing)
                    return failure
                }
                if let failure {
                    rollbacks.wrappingAdd(1, ordering: .relaxed)
                    return failure
                }
            }
            commits.wrappingAdd(1, ordering: .relaxed)
            return nil
        }
    }

    func performRead<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try readNow(body)
    }

    func performWrite<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try writeNow(body)
    }

    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try readNow(body)
    }

    func performWrite<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try writeNow(body)
    }

    private func readNow<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        state.didBeginRead()
        return try body(nil)
    }

    private func writeNow<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try state.writeLock.withLock { _ in
            state.didBeginWrite()
            let value: R
            do {
                value = try body(nil)
            } catch {
                state.didRollBack()
                throw error
            }
            if let failure = state.commitOrInjectedFailure() { throw failure }
            return value
        }
    }

    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error {
        error
    }

    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error {
        error
    }
}
