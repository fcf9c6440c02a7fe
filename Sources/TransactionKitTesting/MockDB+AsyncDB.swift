import TransactionKit

extension MockDB: AsyncDB {
    /// Runs the async `block` in a read transaction, in the calling task.
    /// See ``/TransactionKit/AsyncDB/read(file:line:_:)``.
    ///
    /// The block may suspend; commits made meanwhile stay invisible to it
    /// (its ``/TransactionKit/KeyValueStore`` reads see one snapshot).
    public func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.read(at: CallSite(file: file, line: line), asyncBlock: block)
    }

    /// Runs the async `block` in a write transaction, in the calling task.
    /// See ``/TransactionKit/AsyncDB/write(file:line:_:)``.
    ///
    /// The write lock is held while the block is suspended, so writes stay
    /// serialized. Another task's async write waiting for it suspends, and
    /// blocks no thread; a synchronous write waits with its thread.
    ///
    /// - Warning: A synchronous `write` on this database, called from a task
    ///   while another task's async write is suspended, blocks its
    ///   (cooperative) thread until that write ends; in async code, prefer
    ///   the async `read` and `write`. A synchronous `write` from inside the
    ///   block itself would wait forever, and is reported as a nested
    ///   transaction, at this async write's call site. `DB`'s async `read`
    ///   and `write` inside the block are reported at their own call site;
    ///   a synchronous `read` inside it is not reported (the check would
    ///   cost every synchronous transaction a task-local lookup).
    public func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        try await engine.write(at: CallSite(file: file, line: line), asyncBlock: block)
    }
}
