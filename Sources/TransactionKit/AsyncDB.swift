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
/// **Transaction semantics:** those of ``DB``, with the same transaction
/// types, so finders, mocks and ``KeyValueStore`` work unchanged. Concurrent
/// writes lose no update: `MockDB` runs one at a time; `PostgresDB` runs
/// them side by side and rolls back one that conflicts (``DBError`` of kind
/// ``DBError/Kind/conflict``), or runs it again when configured to retry.
/// Keep effects outside the database in completions, which run once.
///
/// **Executor:** the block runs in the calling task and may resume on
/// another thread after a suspension; the transaction stays valid. Waiting
/// for another transaction suspends the task and blocks no thread.
///
/// **Implementations:** `MockDB` and `PostgresDB`. `SQLiteDB` does not
/// implement `AsyncDB`, on purpose: <doc:Testing#Async-managers-on-MockDB>
/// says why.
///
/// - Warning: A nested transaction (one database, one task), an escaped
///   one, or one used from another task while its block runs is a
///   programmer error (see ``DBMisuseError``); two tasks each running their
///   own transaction is not. Only TransactionKit's backends implement this
///   protocol.
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
    /// commit, sync completions, then async completions are scheduled. When
    /// the block, a finalization or the commit throws, or the task is
    /// cancelled, everything rolls back and no hook runs.
    ///
    /// **Executor:** the calling task's, across suspensions, sync completions
    /// included (before this method returns). Waiting blocks no thread.
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
