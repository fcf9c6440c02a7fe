import TransactionKit

/// The storage side of ``MockDB``: counters, a write lock, injected faults,
/// and the in-memory key-value storage, which commits while the write lock
/// is held.
struct MockBackend: SyncTransactionBackend {
    let state = SharedState()
    let keyValues: MockKeyValueStorage
    /// The database's scope, for the nesting check of a sync write inside an async one.
    let scope: DatabaseScope
    /// Names the database in errors, as `SQLiteDB`'s path does.
    let label: String
    let isReadOnly: Bool

    /// Seeds or inspects the key-value storage between transactions: takes
    /// the write lock, as a write does.
    func withWriteLock<R>(_ body: () -> R) -> R {
        state.writeLock.withLock(body)
    }

    /// Counters and injected faults, shared by every copy of the backend.
    final class SharedState: InlineAtomicWords, Sendable {
        // First stored property: the counters and flags below, inline (a
        // `MockDB` is made per test, and an `AtomicInt` each would be six
        // allocations more per database). Only `atomicWord(_:)` touches it.
        nonisolated(unsafe) private var words: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
        private var reads: AtomicWord { atomicWord(0) }
        private var writes: AtomicWord { atomicWord(1) }
        private var commits: AtomicWord { atomicWord(2) }
        private var rollbacks: AtomicWord { atomicWord(3) }
        /// Lets a commit skip the lock when no failure is injected.
        private var hasCommitFailure: AtomicWord { atomicWord(4) }
        private let nextCommitFailure = LockedValue<DBError?>(nil)
        /// Serializes write transactions, as SQLite does: sync writes wait
        /// on it with their thread, async writes suspend.
        let writeLock = MockWriteGate()
        /// Whether `MockDB.close()` was called.
        private var closed: AtomicWord { atomicWord(5) }

        var isClosed: Bool {
            closed.load(ordering: .acquiring) != 0
        }

        /// Marks the database closed; returns `false` if it already was.
        func markClosed() -> Bool {
            closed.exchange(1, ordering: .acquiringAndReleasing) == 0
        }

        var statistics: MockDB.Statistics {
            MockDB.Statistics(
                reads: reads.load(ordering: .relaxed),
                writes: writes.load(ordering: .relaxed),
                commits: commits.load(ordering: .relaxed),
                rollbacks: rollbacks.load(ordering: .relaxed))
        }

        func resetStatistics() {
            reads.store(0, ordering: .relaxed)
            writes.store(0, ordering: .relaxed)
            commits.store(0, ordering: .relaxed)
            rollbacks.store(0, ordering: .relaxed)
        }

        func failNextCommit(with error: DBError) {
            nextCommitFailure.withLock { failure in
                failure = error
                hasCommitFailure.store(1, ordering: .releasing)
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

        /// Counts a commit, or consumes the injected failure and counts a rollback.
        func commitOrInjectedFailure() -> DBError? {
            if hasCommitFailure.load(ordering: .acquiring) != 0 {
                let failure = nextCommitFailure.withLock { failure -> DBError? in
                    defer { hasCommitFailure.store(0, ordering: .releasing) }
                    return failure.take()
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

    func performWrite<R>(_ body: (AnyObject?) throws -> R, onCommit: (DBChanges) -> Void) throws -> R {
        try writeNow(body, onCommit: onCommit)
    }

    /// Like `SQLiteDB`, an async transaction of a cancelled task does not
    /// begin: it throws `CancellationError`.
    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try Task.checkCancellation()
        return try readNow(body)
    }

    /// Like `SQLiteDB`, an async transaction of a cancelled task does not
    /// begin: it throws `CancellationError`. Waiting for another write
    /// suspends the task; it blocks no thread.
    func performWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R {
        try Task.checkCancellation()
        try checkWritable()
        await state.writeLock.lock()
        defer { state.writeLock.unlock() }
        try Task.checkCancellation()
        return try writeLocked(body, onCommit: onCommit)
    }

    private func readNow<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try beginRead()
        return try body(nil)
    }

    /// Counts a read, or throws when the database is closed.
    @inline(__always)
    func beginRead() throws {
        if state.isClosed {
            throw DBError.closedDatabase(path: label, operation: .read)
        }
        state.didBeginRead()
    }

    private func writeNow<R>(_ body: (AnyObject?) throws -> R, onCommit: (DBChanges) -> Void) throws -> R {
        try checkWritable()
        // A closure literal: a method reference here would be a partial
        // application, allocated on every write.
        return try state.writeLock.withLock(whenContended: { try refuseWriteNestedInAsyncWrite() }) {
            try writeLocked(body, onCommit: onCommit)
        }
    }

    /// Throws when the database is closed or read-only.
    @inline(__always)
    func checkWritable() throws {
        if state.isClosed {
            throw DBError.closedDatabase(path: label, operation: .write)
        }
        if isReadOnly {
            throw DBError.writeToReadOnlyDatabase(path: label)
        }
    }

    /// Runs a write transaction's body; the caller holds the write lock.
    private func writeLocked<R>(_ body: (AnyObject?) throws -> R, onCommit: (DBChanges) -> Void) throws -> R {
        state.didBeginWrite()
        let value: R
        do {
            value = try body(nil)
        } catch {
            rollBackLocked()
            throw error
        }
        try commitLocked(onCommit: onCommit)
        return value
    }

    /// Drops the write transaction's changes; under the write lock.
    func rollBackLocked() {
        keyValues.discard()
        state.didRollBack()
    }

    /// Commits the write transaction's changes, or fails with the injected
    /// failure; under the write lock.
    func commitLocked(onCommit: (DBChanges) -> Void) throws {
        if let failure = state.commitOrInjectedFailure() {
            keyValues.discard()
            throw failure
        }
        // Still under the write lock: the next writer sees all of this
        // transaction's values or none, and observers hear about
        // commits in commit order.
        keyValues.commit()
        onCommit(DBChanges())
    }

    /// A sync write that would wait for the write lock while the current
    /// task runs an async write of this database would wait forever: it
    /// is a nested transaction. Reported at the outer transaction's call
    /// site, the only one the backend knows.
    private func refuseWriteNestedInAsyncWrite() throws {
        if let outer = TaskActiveTransactions.running(in: scope) {
            throw Misuse.nestedTransaction(
                kind: .write, outerKind: outer.kind, outerOpenedAt: outer.openedAt, at: outer.openedAt)
        }
    }

    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error {
        error
    }

    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error {
        error
    }
}
