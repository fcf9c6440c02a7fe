/// A database that hands out opaque transactions.
///
/// Business logic ("managers") receives a `DB` and opens transactions on it;
/// data-access code ("finders") receives the transactions. In production the
/// `DB` is an `SQLiteDB`; in unit tests it is a `MockDB`, which links no
/// database at all.
///
/// ```swift
/// struct ComposeManager {
///     let db: any DB
///     let messages: any MessageFinding
///
///     func send(_ draft: Draft) throws -> Message {
///         try db.write { tx in
///             let message = try messages.insert(draft, tx)
///             tx.addSyncCompletion { log("sent \(message.id)") }
///             return message
///         }
///     }
/// }
/// ```
///
/// **Transaction semantics** (identical in every implementation):
/// - `read` and `write` run their block synchronously inside one transaction
///   and return its value.
/// - A `write` whose block throws is rolled back: nothing it wrote persists,
///   its finalizations and completions never run, and its error is rethrown.
/// - Errors while opening, beginning or committing, and storage faults, are
///   thrown as ``DBError``, which names the database path.
///
/// **Threads:** a `DB` is `Sendable`: share it between threads and tasks.
/// Writes are serialized everywhere. Whether a read runs while a write's
/// block runs depends on the backend, and the behaviour suite pins it:
///
/// | backend | a read while a write runs |
/// | --- | --- |
/// | file `SQLiteDB` (WAL) | runs beside it, on the last committed snapshot |
/// | `MockDB` | runs beside it, as a file database does |
/// | in-memory `SQLiteDB`, `SQLiteTemplate` copies | waits until the write ends (one connection) |
///
/// So a block that waits for another thread's write to finish works on a
/// file and on `MockDB`, and deadlocks in memory; a test that relies on a
/// read running beside a write belongs on a file database.
///
/// - Warning: Opening a transaction inside a transaction of the same `DB`
///   (a nested transaction), using a transaction after its block returned,
///   or using it from another thread while its block runs, is a programmer
///   error: it stops the process with a message naming the call site, or,
///   in a test binary that links `TransactionKitTesting`, fails the running
///   test there and throws ``DBMisuseError``. Only a `DB` creates
///   transactions; this protocol is implemented by `SQLiteDB` and `MockDB`,
///   not by applications.
public protocol DB: Sendable {
    /// Runs `block` in a read transaction. Call ``DB/read(file:line:_:)-476x0``
    /// instead, which fills in the call site.
    func read<T>(_ block: (DBReadTransaction) throws -> T, file: StaticString, line: UInt) throws -> T

    /// Runs `block` in a write transaction. Call ``DB/write(file:line:_:)-8id91``
    /// instead, which fills in the call site.
    func write<T>(_ block: (DBWriteTransaction) throws -> T, file: StaticString, line: UInt) throws -> T

    /// Runs `block` in a read transaction, asynchronously. Call
    /// ``DB/read(file:line:_:)-252pk`` instead, which
    /// fills in the call site.
    func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T

    /// Runs `block` in a write transaction, asynchronously. Call
    /// ``DB/write(file:line:_:)-28del`` instead, which
    /// fills in the call site.
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
    /// **Transaction semantics:** the block sees one consistent snapshot. A
    /// read transaction cannot be passed where a `DBWriteTransaction` is
    /// expected (it does not compile).
    ///
    /// **Thread:** the block runs synchronously; the call blocks the current
    /// thread until it returns. `SQLiteDB` may run it on one of its reader
    /// queues.
    ///
    /// **Lifetime:** the transaction is valid until the block returns.
    ///
    /// - Warning: Calling `read` or `write` on the same `DB` from inside the
    ///   block is a programmer error (nested transaction), and so is using
    ///   the transaction after the block returned (escaped transaction): see
    ///   ``DBMisuseError``.
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: ``DBError`` when the transaction cannot begin or the storage
    ///   fails; otherwise whatever `block` throws, unchanged.
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
    /// **Transaction semantics:** when the block returns, finalizations run,
    /// then the transaction commits, then sync completions run, then async
    /// completions are scheduled. When the block (or a finalization, or the
    /// commit) throws, everything is rolled back and no hook runs. Writes are
    /// serialized: one write transaction at a time per database.
    ///
    /// **Thread:** the block runs synchronously; the call blocks the current
    /// thread until the commit and the sync completions are done.
    ///
    /// **Lifetime:** the transaction is valid until the block returns
    /// (during finalizations too).
    ///
    /// - Warning: Calling `read` or `write` on the same `DB` from inside the
    ///   block is a programmer error (nested transaction), and so is using
    ///   the transaction after the block returned (escaped transaction): see
    ///   ``DBMisuseError``.
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: ``DBError`` when the transaction cannot begin or commit, or
    ///   the storage fails; otherwise whatever `block` throws, unchanged.
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
    /// **Lifetime:** the transaction is valid until the block returns.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled before the
    ///   transaction begins (the block does not run) or while the block runs
    ///   (its value is dropped), on every backend; ``DBError`` for storage
    ///   failures;
    ///   otherwise whatever `block` throws, unchanged.
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
    /// **Transaction semantics:** as in the synchronous `write`. Sync
    /// completions run in the calling task once the commit is done, before
    /// this method returns.
    ///
    /// **Thread:** `SQLiteDB` runs the block on its writer queue and suspends
    /// the caller meanwhile; `MockDB` runs it in the calling task.
    ///
    /// **Lifetime:** the transaction is valid until the block returns.
    ///
    /// - Warning: Nested and escaped transactions are programmer errors (see
    ///   ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled before the
    ///   transaction begins, or while the block runs: the write rolls back
    ///   before its finalizations, nothing persists and no hook runs, on
    ///   every backend (a statement run after the cancellation may throw
    ///   `CancellationError` inside the block already, on SQLite);
    ///   ``DBError`` when the transaction cannot begin or commit, or the
    ///   storage fails; otherwise whatever `block` throws, unchanged.
    public func write<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBWriteTransaction) throws -> T
    ) async throws -> T {
        try await write(block, file: file, line: line)
    }
}
