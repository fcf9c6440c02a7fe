/// How a `writeOrRollBack` block ends: commit, or roll back on purpose, with
/// the value `writeOrRollBack` returns either way.
///
/// ```swift
/// let preview = try db.writeOrRollBack { tx in
///     let report = try importer.apply(batch, tx)
///     return dryRun ? .rollBack(report) : .commit(report)
/// }
/// ```
public enum DBWriteOutcome<Value> {
    /// Commit the transaction (finalizations, commit, completions, as in
    /// `write`), then return the value.
    case commit(Value)
    /// Roll the transaction back, then return the value: nothing the
    /// transaction wrote persists, no finalization or completion runs, and
    /// no commit observer hears about it.
    case rollBack(Value)
}

extension DBWriteOutcome: Sendable where Value: Sendable {}
