extension DB {
    /// Runs `block` in one write transaction, commits or rolls back as its
    /// outcome says, and returns the outcome's value.
    ///
    /// ```swift
    /// // A dry run: validate an import against the real data, keep nothing.
    /// let report = try db.writeOrRollBack { tx in
    ///     let report = try importer.apply(batch, tx)
    ///     return dryRun ? .rollBack(report) : .commit(report)
    /// }
    /// ```
    ///
    /// **Transaction semantics and thread:** those of `write`, except that
    /// ``DBWriteOutcome/rollBack(_:)`` rolls back as if the block had thrown
    /// (nothing persists, no hook runs, commit observers hear nothing,
    /// `MockDB` counts a rollback) and returns the value.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction; returns the outcome.
    /// - Returns: The value of the block's outcome.
    /// - Throws: What `write` throws. A rollback on purpose throws nothing.
    public func writeOrRollBack<T>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: (DBWriteTransaction) throws -> DBWriteOutcome<T>
    ) throws -> T {
        // An outcome rather than a `tx.rollBack()`: the decision stays where
        // the transaction began, and a finder deep inside cannot discard its
        // caller's work. Written once on `write`, so the same on every
        // backend.
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

    /// Runs `block` in one write transaction without blocking the calling
    /// task, commits or rolls back as its outcome says, and returns the
    /// outcome's value.
    ///
    /// ```swift
    /// let report = try await db.writeOrRollBack { tx in
    ///     let report = try importer.apply(batch, tx)
    ///     return dryRun ? .rollBack(report) : .commit(report)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of the synchronous
    /// `writeOrRollBack`; cancellation as in the async `write`.
    ///
    /// **Thread:** as in the async `write`.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors
    ///   (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction; returns the outcome.
    /// - Returns: The value of the block's outcome.
    /// - Throws: What the async `write` throws. A rollback on purpose throws
    ///   nothing.
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
/// The errors that carry a rollback on purpose out of `write`'s block: not
/// a failure of the block, for a ``TransactionTracer``.
protocol RollBackOnPurposeMarker: Error {}

struct RollBackOnPurpose: RollBackOnPurposeMarker {
    let token: RollBackToken
}

/// The async variant's marker, which carries the value across the backend.
struct RollBackOnPurposeCarrying<T: Sendable>: RollBackOnPurposeMarker {
    let token: RollBackToken
    let value: T
}
