extension AsyncDB {
    /// Runs the async `block` in one write transaction, commits or rolls back
    /// as its outcome says, and returns the outcome's value.
    ///
    /// ```swift
    /// // A dry run: validate an import against the real data, keep nothing.
    /// let report = try await db.writeOrRollBack { tx in
    ///     let report = try await importer.apply(batch, tx)
    ///     return dryRun ? .rollBack(report) : .commit(report)
    /// }
    /// ```
    ///
    /// **Transaction semantics and executor:** those of
    /// ``AsyncDB/write(file:line:_:)``, except that
    /// ``DBWriteOutcome/rollBack(_:)`` rolls back as if the block had thrown
    /// (nothing persists, no hook runs) and returns the value.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction; returns the outcome.
    /// - Returns: The value of the block's outcome.
    /// - Throws: What `write` throws. A rollback on purpose throws nothing.
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
