/// The engine's entry points for ``AsyncDB``: the same lifecycle as the
/// synchronous blocks (open, block, finalizations, commit, completions, or
/// rollback; the same error classification), with an async block.
///
/// Two things differ, because an async block may suspend and resume on
/// another thread:
/// - the nesting check and the "active" mark are per task
///   (``TaskActiveTransactions``), not per thread;
/// - the transaction belongs to the task that runs the block
///   (``DBReadTransaction/openInTask(connection:)``), so that using it after
///   a thread hop is fine, and using it from another task is a misuse.
///
/// The synchronous paths are untouched: these are separate methods, only for
/// backends that can keep a transaction open across suspensions.
extension TransactionEngine where Backend: AsyncTransactionBackend {
    package func read<T: Sendable>(
        at callSite: CallSite,
        asyncBlock block: @Sendable (DBReadTransaction) async throws -> T
    ) async throws -> T {
        if let misuse = TaskActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite) { throw misuse }
        let transaction = DBReadTransaction(kind: .read, openedAt: callSite, scope: scope)
        let handoff = TransactionHandoff(transaction)
        return try await run(transaction) { cancellation in
            try await backend.performAsyncRead { connection in
                try await Self.runAsyncRead(handoff.transaction, connection, block, cancellation: cancellation)
            }
        }
    }

    package func write<T: Sendable>(
        at callSite: CallSite,
        asyncBlock block: @Sendable (DBWriteTransaction) async throws -> T
    ) async throws -> T {
        if let misuse = TaskActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite) { throw misuse }
        let transaction = DBWriteTransaction(kind: .write, openedAt: callSite, scope: scope)
        let handoff = TransactionHandoff(transaction)
        let value = try await run(transaction) { cancellation in
            try await backend.performAsyncWrite({ connection in
                try await Self.runAsyncWrite(handoff.transaction, connection, block, cancellation: cancellation)
            }, onCommit: { detected in
                Self.notifyCommit(handoff.transaction, detected)
            })
        }
        transaction.didCommit()
        return value
    }

    /// Runs a transaction's backend call with a cancellation flag that the
    /// task's cancellation sets, and classifies what it throws.
    private func run<T: Sendable>(
        _ transaction: DBReadTransaction,
        _ perform: (CancellationFlag) async throws -> T
    ) async throws -> T {
        let cancellation = CancellationFlag()
        do {
            return try await withTaskCancellationHandler {
                try await perform(cancellation)
            } onCancel: {
                cancellation.cancel()
            }
        } catch {
            throw classify(error, transaction)
        }
    }

    static func runAsyncRead<T>(
        _ transaction: DBReadTransaction,
        _ connection: AnyObject?,
        _ block: (DBReadTransaction) async throws -> T,
        cancellation: CancellationFlag
    ) async throws -> T {
        transaction.openInTask(connection: connection)
        defer { transaction.closeRead() }
        return try await TaskActiveTransactions.whileActive(transaction) {
            do {
                let value = try await block(transaction)
                try cancellation.check()
                return value
            } catch {
                throw TransactionBlockFailure(error: error)
            }
        }
    }

    static func runAsyncWrite<T>(
        _ transaction: DBWriteTransaction,
        _ connection: AnyObject?,
        _ block: (DBWriteTransaction) async throws -> T,
        cancellation: CancellationFlag
    ) async throws -> T {
        transaction.openInTask(connection: connection)
        return try await TaskActiveTransactions.whileActive(transaction) {
            do {
                let value = try await block(transaction)
                try finishWriteBlock(transaction, cancellation: cancellation)
                return value
            } catch {
                transaction.rollBack()
                throw TransactionBlockFailure(error: error)
            }
        }
    }
}
