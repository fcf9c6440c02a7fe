extension DB {
    /// Runs `block` inside one write transaction, then commits it or rolls
    /// it back as the block decides, and returns the block's value either
    /// way.
    ///
    /// ```swift
    /// // A dry run: validate an import against the real data, keep nothing.
    /// let report = try db.writeOrRollBack { tx in
    ///     let report = try importer.apply(batch, tx)
    ///     return dryRun ? .rollBack(report) : .commit(report)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** with ``DBWriteOutcome/commit(_:)``, exactly
    /// ``DB/write(file:line:_:)-8id91``. With ``DBWriteOutcome/rollBack(_:)``,
    /// the transaction rolls back as if the block had thrown: nothing it
    /// wrote persists (on `MockDB` its ``KeyValueStore`` writes vanish too),
    /// its finalizations and completions never run, commit observers hear
    /// nothing, and `MockDB` counts a rollback. The same on every backend,
    /// because this method is written once on top of `write`. A block that
    /// throws rolls back and rethrows, as in `write`.
    ///
    /// Why an outcome rather than a `tx.rollBack()` call: the decision stays
    /// where the transaction began, visible in the block's return
    /// statements, and a finder deep inside cannot discard its caller's
    /// work.
    ///
    /// **Thread:** as ``DB/write(file:line:_:)-8id91``.
    ///
    /// - Warning: As in `write`, nested and escaped transactions are
    ///   programmer errors (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction; returns the outcome.
    /// - Returns: The value of the block's outcome.
    /// - Throws: What ``DB/write(file:line:_:)-8id91`` throws. A rollback
    ///   on purpose throws nothing.
    public func writeOrRollBack<T>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: (DBWriteTransaction) throws -> DBWriteOutcome<T>
    ) throws -> T {
        let token = RollBackToken()
        var rolledBack: T?
        do {
            return try write({ tx in
                switch try block(tx) {
                case let .commit(value):
                    return value
                case let .rollBack(value):
                    rolledBack = value
                    throw RollBackOnPurpose(token: token)
                }
            }, file: file, line: line)
        } catch let marker as RollBackOnPurpose where marker.token === token {
            guard let rolledBack else {
                preconditionFailure("TransactionKit internal error: rolled back without a value")
            }
            return rolledBack
        }
    }

    /// Runs `block` inside one write transaction without blocking the
    /// calling task, then commits it or rolls it back as the block decides,
    /// and returns the block's value either way.
    ///
    /// ```swift
    /// let report = try await db.writeOrRollBack { tx in
    ///     let report = try importer.apply(batch, tx)
    ///     return dryRun ? .rollBack(report) : .commit(report)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of the synchronous
    /// ``writeOrRollBack(file:line:_:)-1ej2j``; cancellation as in the async
    /// ``DB/write(file:line:_:)-28del``.
    ///
    /// **Thread:** as the async ``DB/write(file:line:_:)-28del``.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors
    ///   (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction; returns the outcome.
    /// - Returns: The value of the block's outcome.
    /// - Throws: What the async ``DB/write(file:line:_:)-28del`` throws. A
    ///   rollback on purpose throws nothing.
    public func writeOrRollBack<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBWriteTransaction) throws -> DBWriteOutcome<T>
    ) async throws -> T {
        let token = RollBackToken()
        do {
            return try await write({ tx in
                switch try block(tx) {
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

/// Identifies one `writeOrRollBack` call, so that it catches only its own
/// marker (not that of a `writeOrRollBack` on another database inside it).
final class RollBackToken: Sendable {}

/// Thrown out of a `write` block to make the engine roll back; never escapes
/// `writeOrRollBack`.
struct RollBackOnPurpose: Error {
    let token: RollBackToken
}

/// The async variant's marker, which carries the value across the backend.
struct RollBackOnPurposeCarrying<T: Sendable>: Error {
    let token: RollBackToken
    let value: T
}
