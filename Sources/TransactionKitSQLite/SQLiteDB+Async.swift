import TransactionKit

// Apple platforms: macOS 15, iOS 18, tvOS 18, watchOS 11 or later (and
// Linux): the async blocks run on the connection's thread through a task
// executor (`withTaskExecutorPreference`), which those releases bring.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SQLiteDB: AsyncDB {
    /// Runs the async `block` in a read transaction.
    /// See ``/TransactionKit/AsyncDB/read(file:line:_:)``.
    ///
    /// ```swift
    /// let inbox = try await db.read { tx in try await conversations.conversations(memberID: userID, tx) }
    /// ```
    ///
    /// The same managers, finders and mocks run on this database, on
    /// `MockDB` and on `PostgresDB`; finders reach GRDB's `Database` with
    /// ``shimOnlyBridge(_:file:line:)``, as synchronous ones do.
    ///
    /// **Transaction semantics:** a file database's read runs on one of its
    /// reader connections, beside writes and other reads, and sees one
    /// snapshot however long the block is suspended. An in-memory
    /// database has one connection: the read waits for a running write.
    ///
    /// **Thread:** the block's nonisolated code runs on the connection's
    /// own thread (a dispatch thread, never one of the cooperative pool),
    /// between its suspensions; waiting for a connection suspends the task
    /// and holds no thread.
    ///
    /// **Platforms:** on Apple platforms, macOS 15, iOS 18, tvOS 18 or
    /// watchOS 11 and later (task executors); every Linux.
    ///
    /// - Warning: Use the bridged `Database` only from nonisolated code (a
    ///   finder's `async` method): a block isolated to an actor, such as a
    ///   `@MainActor` closure, runs there, where GRDB refuses the
    ///   connection. In memory, a transaction opened by a child task of a
    ///   block (`async let`, a task group) waits for the block's
    ///   transaction, which waits for the child: use a file database for
    ///   that, or await the child outside the transaction.
    public func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.read(at: CallSite(file: file, line: line), asyncBlock: block)
    }

    /// Runs the async `block` in a write transaction, and commits.
    /// See ``/TransactionKit/AsyncDB/write(file:line:_:)``.
    ///
    /// ```swift
    /// let message = try await db.write { tx in try await messages.insert(draft, tx) }
    /// ```
    ///
    /// **Transaction semantics:** those of the synchronous `write`:
    /// `BEGIN IMMEDIATE`, the block, finalizations, `COMMIT`, sync
    /// completions. The writer connection stays held while the block is
    /// suspended, so writes run one at a time and lose no update; another
    /// task's write waits, suspended.
    ///
    /// **Thread:** the block's nonisolated code runs on the writer
    /// connection's thread (a dispatch thread, never one of the cooperative
    /// pool), between its suspensions.
    ///
    /// - Warning: A synchronous `write` on this database, called while an
    ///   async write's block is suspended, blocks its thread until that
    ///   write ends: in async code, prefer the async `read` and `write`.
    ///   Use the bridged `Database` only from nonisolated code (see the
    ///   async `read`).
    public func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.write(at: CallSite(file: file, line: line), asyncBlock: block)
    }
}
