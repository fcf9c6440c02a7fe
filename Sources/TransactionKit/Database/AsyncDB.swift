/// A database whose transaction blocks are asynchronous: the contract of
/// ``DB`` for finders that `await`, such as those of a PostgreSQL driver.
///
/// ```swift
/// let message = try await db.write { tx in
///     let message = try await messages.insert(draft, tx)
///     tx.addSyncCompletion { log("sent \(message.id)") }
///     return message
/// }
/// ```
///
/// **Transaction semantics:** those of ``DB``, with the same transactions,
/// so finders, mocks and ``KeyValueStore`` work unchanged. Writes lose no
/// update: `MockDB` and `SQLiteDB` run one at a time; `PostgresDB` rolls back one that
/// conflicts (``DBError/Kind/conflict``) or, if configured to, runs it
/// again: keep effects outside the database in completions, which run once.
///
/// **Executor:** the calling task's; the transaction stays valid on whatever
/// thread the task resumes. Waiting for another transaction blocks no thread.
///
/// - Warning: A nested transaction (one database, one task), an escaped
///   one, or one used from another task is a programmer error (see
///   ``DBMisuseError``); two tasks with a transaction each is not.
///   `MockDB`, `SQLiteDB` and `PostgresDB` implement this protocol, so one
///   async manager runs on each of them.
public protocol AsyncDB: Sendable {
    /// Runs the async `block` in a read transaction. Call
    /// ``AsyncDB/read(file:line:_:)`` instead, which fills in the call site.
    func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T

    /// Runs the async `block` in a write transaction. Call
    /// ``AsyncDB/write(file:line:_:)`` instead, which fills in the call site.
    func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T
}

extension AsyncDB {
    /// Runs the async `block` inside one read transaction and returns its
    /// value.
    ///
    /// ```swift
    /// let inbox = try await db.read { tx in try await messages.inbox(for: user, tx) }
    /// ```
    ///
    /// **Transaction semantics:** the block sees one committed snapshot,
    /// whatever commits while it is suspended; reads run beside writes.
    ///
    /// **Executor:** the calling task's, across suspensions.
    ///
    /// **Lifetime:** until the block returns.
    ///
    /// - Warning: Nested and escaped transactions, and a transaction used
    ///   from another task, are programmer errors (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled; ``DBError``
    ///   when the transaction cannot begin or the storage fails; otherwise
    ///   what `block` throws.
    public func read<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBReadTransaction) async throws -> T
    ) async throws -> T {
        try await read(block, file: file, line: line)
    }

    /// Runs the async `block` inside one write transaction, commits, and
    /// returns its value.
    ///
    /// ```swift
    /// let message = try await db.write { tx in try await messages.insert(draft, tx) }
    /// ```
    ///
    /// **Transaction semantics:** when the block returns: finalizations, the
    /// commit, sync completions (before this method returns), then async
    /// completions are scheduled. When the block, a finalization or the
    /// commit throws, or the task is cancelled, all rolls back; no hook runs.
    ///
    /// **Executor:** the calling task's, sync completions included.
    ///
    /// **Lifetime:** until the block returns, and during finalizations.
    ///
    /// - Warning: Nested and escaped transactions, and a transaction used
    ///   from another task, are programmer errors (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled; ``DBError``
    ///   when the transaction cannot begin or commit, or the storage fails;
    ///   otherwise what `block` throws.
    public func write<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBWriteTransaction) async throws -> T
    ) async throws -> T {
        try await write(block, file: file, line: line)
    }
}
