extension AsyncDB {
    /// Runs the async `block` inside one write transaction, then commits it
    /// or rolls it back as the block decides, and returns the block's value
    /// either way.
    ///
    /// ```swift
    /// // A dry run: validate an import against the real data, keep nothing.
    /// let report = try await db.writeOrRollBack { tx in
    ///     let report = try await importer.apply(batch, tx)
    ///     return dryRun ? .rollBack(report) : .commit(report)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of ``DB``'s
    /// ``DB/writeOrRollBack(file:line:_:)-1ej2j``: with
    /// ``DBWriteOutcome/commit(_:)``, exactly ``AsyncDB/write(file:line:_:)``;
    /// with ``DBWriteOutcome/rollBack(_:)``, the transaction rolls back as if
    /// the block had thrown (nothing it wrote persists, its finalizations and
    /// completions never run, commit observers hear nothing, `MockDB` counts
    /// a rollback), and the value is returned. Written once on top of
    /// `write`, so the same on every backend.
    ///
    /// **Executor:** as ``AsyncDB/write(file:line:_:)``.
    ///
    /// - Warning: As in `write`, nested and escaped transactions are
    ///   programmer errors (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction; returns the outcome.
    /// - Returns: The value of the block's outcome.
    /// - Throws: What ``AsyncDB/write(file:line:_:)`` throws. A rollback on
    ///   purpose throws nothing.
    public func writeOrRollBack<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBWriteTransaction) async throws -> DBWriteOutcome<T>
    ) async throws -> T {
        let token = RollBackToken()
        do {
            return try await write({ tx in
                switch try await block(tx) {
                case let .commit(value):
                    return value
                case let .rollBack(value):
                    throw RollBackOnPurposeCarrying(token: token, value: value)
                }
            }, file: file, line: line)
        } catch let marker as RollBackOnPurposeCarrying<T> where marker.token === token {
            return marker.value
        }
    }
}
