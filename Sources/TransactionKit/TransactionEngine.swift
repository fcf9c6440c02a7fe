/// The one implementation of ``DB``'s semantics, shared by every backend:
/// nesting checks, the transaction lifecycle, finalizations and completions,
/// and error classification.
///
/// `MockDB` and `SQLiteDB` both forward `read` and `write` here, so that the
/// order of hooks, the rollback rules and the misuse messages cannot drift
/// apart between production and tests.
package struct TransactionEngine<Backend: TransactionBackend>: Sendable {
    package let backend: Backend
    package let scope: DatabaseScope

    package init(backend: Backend, scope: DatabaseScope) {
        self.backend = backend
        self.scope = scope
    }

    /// Carries an error thrown by the user's block (or a finalization)
    /// through the backend, so that it is not mistaken for a storage error.
    private struct BlockFailure: Error {
        let error: any Error
    }

    // MARK: - Sync

    package func read<T>(at callSite: CallSite, _ block: (DBReadTransaction) throws -> T) throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite)
        let lifecycle = makeLifecycle(.read, callSite)
        do {
            return try backend.performRead { connection in
                try runRead(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
    }

    package func write<T>(at callSite: CallSite, _ block: (DBWriteTransaction) throws -> T) throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite)
        let lifecycle = makeLifecycle(.write, callSite)
        let value: T
        do {
            value = try backend.performWrite { connection in
                try runWrite(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
        lifecycle.didCommit()
        return value
    }

    // MARK: - Async

    package func read<T: Sendable>(
        at callSite: CallSite,
        _ block: @Sendable (DBReadTransaction) throws -> T
    ) async throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite)
        let lifecycle = makeLifecycle(.read, callSite)
        do {
            return try await backend.performRead { connection in
                try runRead(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
    }

    package func write<T: Sendable>(
        at callSite: CallSite,
        _ block: @Sendable (DBWriteTransaction) throws -> T
    ) async throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite)
        let lifecycle = makeLifecycle(.write, callSite)
        let value: T
        do {
            value = try await backend.performWrite { connection in
                try runWrite(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
        lifecycle.didCommit()
        return value
    }

    // MARK: - Shared steps

    private func makeLifecycle(_ kind: TransactionKind, _ callSite: CallSite) -> TransactionLifecycle {
        TransactionLifecycle(kind: kind, openedAt: callSite, scope: scope, isMock: backend.isMock)
    }

    private func runRead<T>(
        _ lifecycle: TransactionLifecycle,
        _ connection: AnyObject?,
        _ block: (DBReadTransaction) throws -> T
    ) throws -> T {
        lifecycle.open(connection: connection)
        defer { lifecycle.closeRead() }
        return try ActiveTransactions.whileActive(in: scope, kind: .read, openedAt: lifecycle.openedAt) {
            do {
                return try block(DBReadTransaction(lifecycle: lifecycle))
            } catch {
                throw BlockFailure(error: error)
            }
        }
    }

    private func runWrite<T>(
        _ lifecycle: TransactionLifecycle,
        _ connection: AnyObject?,
        _ block: (DBWriteTransaction) throws -> T
    ) throws -> T {
        lifecycle.open(connection: connection)
        return try ActiveTransactions.whileActive(in: scope, kind: .write, openedAt: lifecycle.openedAt) {
            let transaction = DBWriteTransaction(lifecycle: lifecycle)
            do {
                let value = try block(transaction)
                try lifecycle.runFinalizations(transaction)
                return value
            } catch {
                lifecycle.rollBack()
                throw BlockFailure(error: error)
            }
        }
    }

    /// Decides what `read` or `write` throws, and makes sure a failed
    /// transaction can no longer be used.
    private func classify(_ error: any Error, _ lifecycle: TransactionLifecycle) -> any Error {
        let kind = lifecycle.kind
        if let failure = error as? BlockFailure {
            return backend.blockError(from: failure.error, during: kind == .read ? .read : .write)
        }
        let operation: DBError.Operation
        switch lifecycle.state {
        case .committing: operation = .commit
        default: operation = kind == .read ? .read : .write
        }
        if lifecycle.state != .ended {
            lifecycle.rollBack()
        }
        return backend.storageError(from: error, during: operation)
    }
}
