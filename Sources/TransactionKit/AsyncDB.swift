/// A database whose transaction blocks are asynchronous: the same contract
/// as ``DB``, for backends whose drivers are asynchronous (PostgreSQL), and
/// for finders that `await`.
///
/// ```swift
/// struct InboxManager: Sendable {
///     let db: any AsyncDB
///     let messages: any AsyncMessageFinding
///
///     func send(_ draft: Draft) async throws -> Message {
///         try await db.write { tx in
///             let message = try await messages.insert(draft, tx)
///             tx.addSyncCompletion { log("sent \(message.id)") }
///             return message
///         }
///     }
/// }
/// ```
///
/// **Transaction semantics** (those of ``DB``, in every implementation):
/// - `read` and `write` run their async block inside one transaction and
///   return its value. The block receives the same opaque
///   ``DBReadTransaction`` and ``DBWriteTransaction`` values as `DB`'s
///   blocks, so finders, mocks and ``KeyValueStore`` work unchanged.
/// - A `write` whose block throws is rolled back: nothing it wrote
///   persists, its finalizations and completions never run, and its error
///   is rethrown. ``writeOrRollBack(file:line:_:)`` rolls back on purpose
///   and returns a value.
/// - When the block returns, finalizations run, then the commit, then sync
///   completions (in the calling task, before `write` returns), then async
///   completions are scheduled: the order of ``DB``.
/// - Errors while opening, beginning or committing are thrown as
///   ``DBError``; a task cancelled before the transaction begins or while
///   its block runs gets `CancellationError`, and its write rolls back.
///
/// **Tasks:** an `AsyncDB` is `Sendable`. The block runs in the calling
/// task and may suspend (`await`) as often as it likes; it may resume on
/// another thread, and the transaction stays valid. Waiting for another
/// transaction suspends; it does not block a thread. Reads run beside each
/// other and beside writes, each on one committed snapshot.
///
/// **Concurrent writes** never lose an update, but how they are isolated
/// depends on the implementation: `MockDB` runs one write at a time;
/// `PostgresDB` runs them side by side at its configured isolation level
/// (serializable unless configured otherwise) and rolls back one that
/// conflicts with another, throwing ``DBError`` of kind
/// ``DBError/Kind/conflict`` or running the whole transaction again when
/// its configuration allows retries. Keep effects outside the database in
/// completions, which run once, after the commit that succeeded.
///
/// **Implementations:** `MockDB` (which also implements ``DB``) and
/// `PostgresDB` (the TransactionKitPostgres product, behind the package
/// trait `Postgres`). `SQLiteDB` does not implement `AsyncDB`, on purpose:
/// - A GRDB connection is bound to a serial dispatch queue, and SQLite
///   allows one writer per file. An async block holds the transaction across
///   its suspensions, and while it is suspended the connection must serve
///   nobody else: another writer let in would write into this transaction,
///   or see its uncommitted rows.
/// - A safe implementation would have to hold the write serialization
///   across every suspension: either by parking the writer queue (one
///   thread blocked for as long as the slowest awaited call, and a
///   deadlock as soon as the block awaits something that needs that
///   queue, such as a `DB` read in memory or a completion), or by an async
///   lock in front of GRDB's writer with every statement hopping onto the
///   writer queue and back (a context switch per statement, against an
///   in-process engine whose statements take microseconds).
/// - SQLite gains nothing from it: its statements do not wait on a network,
///   and `DB`'s async variants already run a synchronous block on the
///   writer queue without blocking the caller. Code that must await inside
///   a transaction is talking to a server, which is `PostgresDB`'s job.
///
/// - Warning: Opening a transaction inside a transaction of the same
///   database from the same task (a nested transaction), using a
///   transaction after its block returned (an escaped transaction), or
///   using it from another task while its block runs, is a programmer
///   error: it stops the process with a message naming the call site, or,
///   in a test binary that links `TransactionKitTesting`, fails the running
///   test there and throws ``DBMisuseError``. Two different tasks each
///   running their own transaction is not a misuse. Only a database
///   creates transactions; this protocol is implemented by TransactionKit's
///   backends, not by applications.
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
    /// **Transaction semantics:** the block sees one consistent snapshot,
    /// whatever commits while it is suspended. A read transaction cannot be
    /// passed where a `DBWriteTransaction` is expected (it does not compile).
    ///
    /// **Executor:** the block runs in the calling task, and may resume on
    /// another thread after each suspension.
    ///
    /// **Lifetime:** the transaction is valid until the block returns.
    ///
    /// - Warning: Calling `read` or `write` on the same database from inside
    ///   the block, in the same task, is a programmer error (nested
    ///   transaction), and so is using the transaction after the block
    ///   returned (escaped transaction) or from another task: see
    ///   ``DBMisuseError``.
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled before the
    ///   transaction begins or while the block runs; ``DBError`` when the
    ///   transaction cannot begin or the storage fails; otherwise whatever
    ///   `block` throws, unchanged.
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
    /// **Transaction semantics:** when the block returns, finalizations
    /// run, then the transaction commits, then sync completions run, then
    /// async completions are scheduled. When the block (or a finalization,
    /// or the commit) throws, or the task is cancelled while the block
    /// runs, everything is rolled back and no hook runs. Concurrent writes
    /// lose no update: `MockDB` runs one at a time, even while a block is
    /// suspended; `PostgresDB` may roll one back as a conflict (see
    /// ``AsyncDB``).
    ///
    /// **Executor:** the block runs in the calling task, and may resume on
    /// another thread after each suspension. Waiting for another task's
    /// write (or for a connection) suspends the caller; it blocks no thread. Sync completions run
    /// in the calling task before this method returns.
    ///
    /// **Lifetime:** the transaction is valid until the block returns
    /// (during finalizations too).
    ///
    /// - Warning: Calling `read` or `write` on the same database from inside
    ///   the block, in the same task, is a programmer error (nested
    ///   transaction), and so is using the transaction after the block
    ///   returned (escaped transaction) or from another task: see
    ///   ``DBMisuseError``.
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given the transaction.
    /// - Throws: `CancellationError` when the task is cancelled before the
    ///   transaction begins or while the block runs; ``DBError`` when the
    ///   transaction cannot begin or commit, or the storage fails; otherwise
    ///   whatever `block` throws, unchanged.
    public func write<T: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @Sendable (DBWriteTransaction) async throws -> T
    ) async throws -> T {
        try await write(block, file: file, line: line)
    }
}
