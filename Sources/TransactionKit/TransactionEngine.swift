/// The one implementation of ``DB``'s semantics, shared by every backend:
/// nesting checks, the transaction lifecycle, finalizations and completions,
/// and error classification.
///
/// `MockDB` and `SQLiteDB` both forward `read` and `write` here, so that the
/// order of hooks, the rollback rules and the misuse messages cannot drift
/// apart between production and tests.
package struct TransactionEngine<Backend: TransactionBackend>: Sendable {
    // `scope` comes first so that unspecialized code finds it at a fixed
    // offset, without asking for this generic type's metadata.
    package let scope: DatabaseScope
    package let backend: Backend

    package init(backend: Backend, scope: DatabaseScope) {
        self.backend = backend
        self.scope = scope
    }

    // MARK: - Sync
    //
    // The engine's methods are `@inlinable` so that `MockDB` and `SQLiteDB`
    // get copies specialized for their backend: an unspecialized call costs a
    // lookup of `TransactionEngine<Backend>`'s generic metadata on every
    // transaction, which was a third of an empty `MockDB` transaction.

    @inlinable
    package func read<T>(at callSite: CallSite, _ block: (DBReadTransaction) throws -> T) throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite)
        let lifecycle = makeLifecycle(.read, callSite)
        do {
            return try backend.performRead { connection in
                try Self.runRead(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
    }

    @inlinable
    package func write<T>(at callSite: CallSite, _ block: (DBWriteTransaction) throws -> T) throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite)
        let lifecycle = makeLifecycle(.write, callSite)
        let value: T
        do {
            value = try backend.performWrite { connection in
                try Self.runWrite(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
        lifecycle.didCommit()
        return value
    }

    // MARK: - Async

    @inlinable
    package func read<T: Sendable>(
        at callSite: CallSite,
        _ block: @Sendable (DBReadTransaction) throws -> T
    ) async throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .read, at: callSite)
        let lifecycle = makeLifecycle(.read, callSite)
        do {
            return try await backend.performRead { connection in
                try Self.runRead(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
    }

    @inlinable
    package func write<T: Sendable>(
        at callSite: CallSite,
        _ block: @Sendable (DBWriteTransaction) throws -> T
    ) async throws -> T {
        ActiveTransactions.checkNotNested(in: scope, kind: .write, at: callSite)
        let lifecycle = makeLifecycle(.write, callSite)
        let value: T
        do {
            value = try await backend.performWrite { connection in
                try Self.runWrite(lifecycle, connection, block)
            }
        } catch {
            throw classify(error, lifecycle)
        }
        lifecycle.didCommit()
        return value
    }

    // MARK: - Shared steps

    @inlinable
    func makeLifecycle(_ kind: TransactionKind, _ callSite: CallSite) -> TransactionLifecycle {
        TransactionLifecycle(kind: kind, openedAt: callSite, scope: scope, isMock: backend.isMock)
    }

    @inlinable
    static func runRead<T>(
        _ lifecycle: TransactionLifecycle,
        _ connection: AnyObject?,
        _ block: (DBReadTransaction) throws -> T
    ) throws -> T {
        lifecycle.open(connection: connection)
        defer { lifecycle.closeRead() }
        return try ActiveTransactions.whileActive(lifecycle) {
            do {
                return try block(DBReadTransaction(lifecycle: lifecycle))
            } catch {
                throw TransactionBlockFailure(error: error)
            }
        }
    }

    @inlinable
    static func runWrite<T>(
        _ lifecycle: TransactionLifecycle,
        _ connection: AnyObject?,
        _ block: (DBWriteTransaction) throws -> T
    ) throws -> T {
        lifecycle.open(connection: connection)
        return try ActiveTransactions.whileActive(lifecycle) {
            let transaction = DBWriteTransaction(lifecycle: lifecycle)
            do {
                let value = try block(transaction)
                try lifecycle.runFinalizations(transaction)
                return value
            } catch {
                lifecycle.rollBack()
                throw TransactionBlockFailure(error: error)
            }
        }
    }

    /// Decides what `read` or `write` throws, and makes sure a failed
    /// transaction can no longer be used.
    @usableFromInline
    func classify(_ error: any Error, _ lifecycle: TransactionLifecycle) -> any Error {
        let kind = lifecycle.kind
        if let failure = error as? TransactionBlockFailure {
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

/// Carries an error thrown by the user's block (or a finalization) through the
/// backend, so that it is not mistaken for a storage error. Not nested in
/// ``TransactionEngine``, so that it is not a generic type.
@usableFromInline
struct TransactionBlockFailure: Error {
    @usableFromInline let error: any Error

    @inlinable init(error: any Error) { self.error = error }
}
