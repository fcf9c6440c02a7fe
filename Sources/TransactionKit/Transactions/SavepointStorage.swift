/// What a backend provides to savepoints
/// (``DBWriteTransaction/inSavepoint(file:line:_:)-79bql``):
/// the storage side of one step of a savepoint, reached through the
/// transaction's ``DatabaseScope``, as ``KeyValueStorage`` is.
///
/// Each ``DB`` implementation gives its scope one (`SQLiteDB`: `SAVEPOINT`
/// statements on the transaction's GRDB connection; `PostgresDB`: the same
/// on its PostgreSQL connection; `MockDB`: a stack of its key-value
/// storage's staged changes). The engine owns everything else: the checks,
/// the hooks registered inside the savepoint, the transaction log. It has
/// checked that the transaction is active in this thread or task before it
/// calls any of these methods.
///
/// Semantics every implementation keeps (the behaviour suite and the
/// differential tests check them): ``SavepointStep/begin`` marks the
/// storage's state; ``SavepointStep/release`` forgets the innermost mark and
/// keeps what was done since; ``SavepointStep/rollBack`` restores the
/// state of the innermost mark and forgets it. Steps come well nested: each
/// `begin` is followed, before the transaction ends, by one `release` or
/// one `rollBack` of that savepoint, innermost first.
package protocol SavepointStorage: Sendable {
    /// Performs `step` on the storage of `transaction`, for the
    /// `inSavepoint` called at `callSite`.
    ///
    /// - Throws: A storage fault, as the backend's key-value storage throws
    ///   them (a ``DBError``), or a ``DBMisuseError`` after reporting a
    ///   misuse that only the storage can see, at `callSite`.
    func perform(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) throws

    /// Performs `step` on the storage of `transaction`, without blocking
    /// the task. The default performs the synchronous step.
    func performAsync(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) async throws
}

extension SavepointStorage {
    package func performAsync(
        _ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite
    ) async throws {
        try perform(step, in: transaction, at: callSite)
    }
}

/// One step of a savepoint's life, as its storage performs it.
package enum SavepointStep: Sendable {
    /// `SAVEPOINT`: marks the storage's state.
    case begin
    /// `RELEASE`: keeps what the savepoint did, and forgets the mark.
    case release
    /// `ROLLBACK TO` then `RELEASE`: undoes what the savepoint did, and
    /// forgets the mark.
    case rollBack
}
