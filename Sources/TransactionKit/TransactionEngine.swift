/// The one implementation of ``DB``'s semantics, shared by every backend:
/// nesting checks, the transaction lifecycle, finalizations and completions,
/// and error classification.
///
/// `MockDB` and `SQLiteDB` both forward `read` and `write` here, so that the
/// order of hooks, the rollback rules and the misuse messages cannot drift
/// apart between production and tests.
///
/// The backends call it unspecialized (no `@inlinable`): their `read` and
/// `write` are generic in the block's result and reached through `any DB`,
/// so a copy of the engine in their module could not be specialized either.
package struct TransactionEngine<Backend: TransactionBackend>: Sendable {
    // `scope` comes first so that unspecialized code finds it at a fixed
    // offset, without asking for this generic type's metadata.
    package let scope: DatabaseScope
    package let backend: Backend

    package init(backend: Backend, scope: DatabaseScope) {
        self.backend = backend
        self.scope = scope
    }
}

extension TransactionEngine where Backend: SyncTransactionBackend {
    // MARK: - Sync

    package func read<T>(at callSite: CallSite, _ block: (DBReadTransaction) throws -> T) throws -> T {
        if let misuse = ActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite) { throw misuse }
        let transaction = DBReadTransaction(kind: .read, openedAt: callSite, scope: scope)
        do {
            return try backend.performRead { connection in
                try Self.runRead(transaction, connection, block)
            }
        } catch {
            throw classify(error, transaction)
        }
    }

    package func write<T>(at callSite: CallSite, _ block: (DBWriteTransaction) throws -> T) throws -> T {
        if let misuse = ActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite) { throw misuse }
        let transaction = DBWriteTransaction(kind: .write, openedAt: callSite, scope: scope)
        let value: T
        do {
            value = try backend.performWrite({ connection in
                try Self.runWrite(transaction, connection, block)
            }, onCommit: { detected in
                Self.notifyCommit(transaction, detected)
            })
        } catch {
            throw classify(error, transaction)
        }
        transaction.didCommit()
        return value
    }

    // MARK: - Async

    package func read<T: Sendable>(
        at callSite: CallSite,
        _ block: @Sendable (DBReadTransaction) throws -> T
    ) async throws -> T {
        // Inside an `AsyncDB` block of this database, in this task (MockDB
        // implements both protocols), a nested transaction too.
        if let misuse = ActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite)
            ?? TaskActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite)
        {
            throw misuse
        }
        let transaction = DBReadTransaction(kind: .read, openedAt: callSite, scope: scope)
        let handoff = TransactionHandoff(transaction)
        let cancellation = CancellationFlag()
        do {
            return try await withTaskCancellationHandler {
                try await backend.performRead { connection in
                    try Self.runRead(handoff.transaction, connection, block, cancellation: cancellation)
                }
            } onCancel: {
                cancellation.cancel()
            }
        } catch {
            throw classify(error, transaction)
        }
    }

    package func write<T: Sendable>(
        at callSite: CallSite,
        _ block: @Sendable (DBWriteTransaction) throws -> T
    ) async throws -> T {
        // Inside an `AsyncDB` block of this database, in this task (MockDB
        // implements both protocols), a nested transaction too.
        if let misuse = ActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite)
            ?? TaskActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite)
        {
            throw misuse
        }
        let transaction = DBWriteTransaction(kind: .write, openedAt: callSite, scope: scope)
        let handoff = TransactionHandoff(transaction)
        let cancellation = CancellationFlag()
        let value: T
        do {
            value = try await withTaskCancellationHandler {
                try await backend.performWrite({ connection in
                    try Self.runWrite(handoff.transaction, connection, block, cancellation: cancellation)
                }, onCommit: { detected in
                    Self.notifyCommit(handoff.transaction, detected)
                })
            } onCancel: {
                cancellation.cancel()
            }
        } catch {
            throw classify(error, transaction)
        }
        transaction.didCommit()
        return value
    }
}

extension TransactionEngine {
    // MARK: - Shared steps

    /// Runs a read block. `cancellation`, for async reads, turns a task
    /// cancelled while the block ran into `CancellationError`.
    static func runRead<T>(
        _ transaction: DBReadTransaction,
        _ connection: AnyObject?,
        _ block: (DBReadTransaction) throws -> T,
        cancellation: CancellationFlag? = nil
    ) throws -> T {
        transaction.open(connection: connection)
        defer { transaction.closeRead() }
        let mark = ActiveTransactions.enter(transaction)
        defer { ActiveTransactions.leave(transaction, mark) }
        do {
            let value = try block(transaction)
            try cancellation?.check()
            return value
        } catch {
            throw TransactionBlockFailure(error: error)
        }
    }

    /// Runs a write block and its finalizations. `cancellation`, for async
    /// writes, rolls back a write whose task was cancelled while the block
    /// ran, before its finalizations, with `CancellationError`.
    static func runWrite<T>(
        _ transaction: DBWriteTransaction,
        _ connection: AnyObject?,
        _ block: (DBWriteTransaction) throws -> T,
        cancellation: CancellationFlag? = nil
    ) throws -> T {
        transaction.open(connection: connection)
        let mark = ActiveTransactions.enter(transaction)
        defer { ActiveTransactions.leave(transaction, mark) }
        do {
            let value = try block(transaction)
            try finishWriteBlock(transaction, cancellation: cancellation)
            return value
        } catch {
            transaction.rollBack()
            throw TransactionBlockFailure(error: error)
        }
    }

    /// What follows a write block that returned, in every kind of write:
    /// rolls back a cancelled task's write before its finalizations, then
    /// runs the finalizations. The backend commits next.
    @inline(__always)
    static func finishWriteBlock(_ transaction: DBWriteTransaction, cancellation: CancellationFlag?) throws {
        try cancellation?.check()
        try transaction.runFinalizations(transaction)
        try cancellation?.check()
    }

    /// The one place that tells commit observers about a commit: the
    /// backend calls it (as `onCommit`) once its storage committed, still
    /// inside its write serialization, with the tables the storage detected;
    /// the transaction adds the changes recorded while it ran.
    static func notifyCommit(_ transaction: DBWriteTransaction, _ detected: DBChanges) {
        let observers = transaction.scope.commitObservers
        guard !observers.isEmpty else { return }
        var changes = transaction.recordedChanges ?? DBChanges()
        changes.tables.formUnion(detected.tables)
        changes.keyValueCollections.formUnion(detected.keyValueCollections)
        observers.notify(changes)
    }

    /// Decides what `read` or `write` throws, and makes sure a failed
    /// transaction can no longer be used.
    func classify(_ error: any Error, _ transaction: DBReadTransaction) -> any Error {
        transaction.traceFailure(error)
        let kind = transaction.kind
        if let failure = error as? TransactionBlockFailure {
            return backend.blockError(from: failure.error, during: kind == .read ? .read : .write)
        }
        let operation: DBError.Operation
        switch transaction.state {
        case .committing: operation = .commit
        default: operation = kind == .read ? .read : .write
        }
        if transaction.state != .ended {
            transaction.rollBack()
        }
        if error is ApplicationTransactionInProgress {
            return Misuse.nestedInApplicationTransaction(kind: kind, at: transaction.openedAt)
        }
        if error is CancellationError || error is DBMisuseError {
            // The task was cancelled before the transaction began or
            // committed, or the backend found a misuse (and reported it):
            // errors about the caller, not the storage.
            return error
        }
        return backend.storageError(from: error, during: operation)
    }
}
