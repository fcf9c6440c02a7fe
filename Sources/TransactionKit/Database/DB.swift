/// A database that hands out opaque transactions.
///
/// Managers receive a `DB` and open transactions on it; finders receive the
/// transactions. In production it is an `SQLiteDB`; in unit tests a `MockDB`.
///
/// ```swift
/// let message = try db.write { tx in
///     let message = try messages.insert(draft, tx)
///     tx.addSyncCompletion { log("sent \(message.id)") }
///     return message
/// }
/// ```
///
/// **Transaction semantics** (every implementation): `read` and `write` run
/// their block in one transaction and return its value; a `write` whose
/// block throws rolls back (nothing persists, no hook runs) and rethrows.
/// Storage faults are thrown as ``DBError``.
///
/// **Threads:** `Sendable`. Writes are serialized; reads run beside them on
/// the last committed snapshot, but wait for them on an in-memory `SQLiteDB`
/// (one connection), where a block must not wait for another thread's write.
///
/// - Warning: Nested and escaped transactions, and a transaction used from
///   another thread, are programmer errors (see ``DBMisuseError``). Only
///   `SQLiteDB` and `MockDB` implement this protocol, not applications.
public protocol DB: Sendable {
    /// Runs `block` in a read transaction. Call `read(file:line:_:)`
    /// instead, which fills in the call site.
    func read<T>(_ block: (DBReadTransaction) throws -> T, file: StaticString, line: UInt) throws -> T

    /// Runs `block` in a write transaction. Call `write(file:line:_:)`
    /// instead, which fills in the call site.
    func write<T>(_ block: (DBWriteTransaction) throws -> T, file: StaticString, line: UInt) throws -> T

    /// Runs `block` in a read transaction, asynchronously. Call
    /// `read(file:line:_:)` instead, which fills in the call site.
    func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T

    /// Runs `block` in a write transaction, asynchronously. Call
    /// `write(file:line:_:)` instead, which fills in the call site.
    func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T
}

extension DB {
    /// Runs `block` inside one read transaction and returns its value.
    ///
    /// ```swift
    /// let count = try db.read { tx in try messages.unreadCount(for: user, tx) }
    /// ```
    ///
    /// **Transaction semantics:** the block sees one consistent snapshot.
    ///
    /// **Thread:** the call blocks the current thread until the block
    /// returns; `SQLiteDB` may run the block on one of its reader queues.
    ///
    /// **Lifetime:** until the block returns.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: ``DBError`` when the transaction cannot begin or the storage
    ///   fails; otherwise what `block` throws.
    public func read<T>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: (DBReadTransaction) throws -> T
    ) throws -> T {
        try read(block, file: file, line: line)
    }

    /// Runs `block` inside one write transaction, commits, and returns its value.
    ///
    /// ```swift
    /// let message = try db.write { tx in try messages.insert(draft, tx) }
    /// ```
    ///
    /// **Transaction semantics:** when the block returns: finalizations, the
    /// commit, sync completions, then async completions are scheduled. When
    /// the block, a finalization or the commit throws, everything rolls back
    /// and no hook runs. One write at a time per database.
    ///
    /// **Thread:** the call blocks the current thread until the commit and
    /// the sync completions are done.
    ///
    /// **Lifetime:** until the block returns, and during finalizations.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: ``DBError`` when the transaction cannot begin or commit, or
    ///   the storage fails; otherwise what `block` throws.
    public func write<T>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: (DBWriteTransaction) throws -> T
    ) throws -> T {
        try write(block, file: file, line: line)
    }

    /// Runs `block` inside one read transaction without blocking the calling
    /// task, and returns its value.
    ///
    /// ```swift
    /// let count = try await db.read { tx in try messages.unreadCount(for: user, tx) }
    /// ```
    ///
    /// **Transaction semantics:** as in the synchronous `read`.
    ///
    /// **Thread:** `SQLiteDB` runs the block on one of its reader queues and
    /// suspends the caller meanwhile; `MockDB` runs it in the calling task.
    ///
    /// **Lifetime:** until the block returns.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled before the
    ///   transaction begins (the block does not run) or while the block runs
    ///   (its value is dropped); ``DBError`` when the storage fails;
    ///   otherwise what `block` throws.
    public func read<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBReadTransaction) throws -> T
    ) async throws -> T {
        try await read(block, file: file, line: line)
    }

    /// Runs `block` inside one write transaction without blocking the calling
    /// task, commits, and returns its value.
    ///
    /// ```swift
    /// let message = try await db.write { tx in try messages.insert(draft, tx) }
    /// ```
    ///
    /// **Transaction semantics and lifetime:** as in the synchronous `write`.
    ///
    /// **Thread:** `SQLiteDB` runs the block on its writer queue, suspending
    /// the caller; `MockDB` runs it in the calling task. Sync completions run
    /// in the calling task before this method returns.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled before the
    ///   transaction begins or while the block runs, which rolls the write
    ///   back (an SQLite statement in the block may throw it first);
    ///   ``DBError`` when the transaction cannot begin or commit, or the
    ///   storage fails; otherwise what `block` throws.
    public func write<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBWriteTransaction) throws -> T
    ) async throws -> T {
        try await write(block, file: file, line: line)
    }
}
