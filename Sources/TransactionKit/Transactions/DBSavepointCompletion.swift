/// How a savepoint ends: what the block of
/// ``DBWriteTransaction/inSavepoint(file:line:_:)-79bql``
/// returns, as GRDB's `Database.TransactionCompletion` does for
/// `Database.inSavepoint`.
///
/// ```swift
/// try db.write { tx in
///     try tx.inSavepoint {
///         try importer.importRow(row, tx)
///         return row.isValid ? .commit : .rollback
///     }
/// }
/// ```
public enum DBSavepointCompletion: Sendable, Hashable {
    /// Keep what the savepoint did: it becomes part of the enclosing
    /// transaction (or savepoint), and commits or rolls back with it.
    case commit
    /// Undo what the savepoint did, and go on with the enclosing
    /// transaction: its writes, the hooks it registered, and the mock calls
    /// made in it are rolled back (see
    /// ``DBWriteTransaction/inSavepoint(file:line:_:)-79bql``).
    case rollback
}
