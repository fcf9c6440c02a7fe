extension DBWriteTransaction {
    /// Runs `block` inside a savepoint: a nested scope of this transaction
    /// that commits or rolls back alone, as GRDB's `Database.inSavepoint`.
    ///
    /// ```swift
    /// try db.write { tx in
    ///     for row in batch {
    ///         // A row that fails leaves no trace; the others commit.
    ///         try? tx.inSavepoint {
    ///             try importer.importRow(row, tx)
    ///             return .commit
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The block uses this same transaction (there is no other handle), so
    /// code written for GRDB's `db.inSavepoint { … }` keeps its body.
    ///
    /// **Transaction semantics:** when the block returns
    /// ``DBSavepointCompletion/commit``, what it did becomes part of the
    /// enclosing transaction (or savepoint), and commits or rolls back with
    /// it. When it returns ``DBSavepointCompletion/rollback``, or throws,
    /// everything it did is undone and the transaction goes on as it was
    /// before the savepoint began:
    /// - its writes, and its ``KeyValueStore`` values, on every database
    ///   (`MockDB` as SQLite and PostgreSQL do);
    /// - the hooks registered inside it: its finalizations (a finalization
    ///   whose key it replaced gets its previous block back), its sync and
    ///   async completions: none of them runs;
    /// - the changes commit observers and live values would have heard of;
    /// - on `MockDB`, in the transaction log, its hooks; the mock calls made
    ///   inside it stay in the log, marked as rolled back by a savepoint.
    ///
    /// A thrown error is rethrown after the rollback: catch it inside the
    /// transaction to go on, or let it roll back the whole transaction.
    /// Savepoints nest. A savepoint may run in a finalization (not in one
    /// of a transaction bridged from the application's own, which runs in
    /// SQLite's commit hook). In a transaction bridged from the
    /// application's own GRDB write, savepoints nest with GRDB's; a GRDB
    /// `Database.inSavepoint` that rolls back undoes the data written inside
    /// it, but not the hooks registered meanwhile: code that registers
    /// hooks uses this method.
    ///
    /// **Thread:** runs `block` at once, on the calling thread. On a
    /// `PostgresDB` transaction, prefer
    /// ``inSavepoint(file:line:_:)-5taik``:
    /// this method blocks the thread for each statement, as
    /// ``KeyValueStore`` does there.
    ///
    /// **Lifetime:** the savepoint ends when `block` returns; the
    /// transaction stays valid until its own block returns.
    ///
    /// - Warning: Calling it on a transaction whose block returned (an
    ///   escaped transaction), or from another thread or task, is a misuse
    ///   that stops the process with a message naming this call site (see
    ///   ``DBMisuseError``). A read transaction has no savepoints: there is
    ///   nothing to roll back (this method is on `DBWriteTransaction` only).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work; returns whether to keep it.
    /// - Throws: The block's error (after the rollback), a ``DBError`` when
    ///   the storage fails to begin, release or roll back the savepoint,
    ///   and ``DBMisuseError`` under a test runner, after recording a misuse
    ///   as a test failure.
    public func inSavepoint(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: () throws -> DBSavepointCompletion
    ) throws {
        try runSavepoint(at: CallSite(file: file, line: line), block)
    }

    /// Runs the async `block` inside a savepoint: a nested scope of this
    /// transaction that commits or rolls back alone, in the block of an
    /// ``AsyncDB`` write.
    ///
    /// ```swift
    /// try await db.write { tx in
    ///     try await tx.inSavepoint {
    ///         try await orders.reserve(order, tx)
    ///         return try await stock.isAvailable(order, tx) ? .commit : .rollback
    ///     }
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of
    /// ``inSavepoint(file:line:_:)-79bql``. On
    /// `PostgresDB`, a statement that failed inside the savepoint leaves the
    /// transaction usable once the savepoint rolled back: catch the error
    /// inside the write block to go on.
    ///
    /// **Task:** runs `block` at once, in the calling task. On `PostgresDB`
    /// the savepoint's statements suspend the task and block no thread; on
    /// `SQLiteDB` they run on the connection's thread, as the block's
    /// finders do. The compiler picks this method for a block that awaits;
    /// for a block that does not, it picks the synchronous one.
    ///
    /// **Lifetime:** the savepoint ends when `block` returns; the
    /// transaction stays valid until its own block returns.
    ///
    /// - Warning: Calling it on a transaction whose block returned, or from
    ///   another task, is a misuse that stops the process with a message
    ///   naming this call site (see ``DBMisuseError``).
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work; returns whether to keep it.
    /// - Throws: The block's error (after the rollback), a ``DBError`` when
    ///   the storage fails to begin, release or roll back the savepoint,
    ///   and ``DBMisuseError`` under a test runner, after recording a misuse
    ///   as a test failure.
    public func inSavepoint(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: () async throws -> DBSavepointCompletion
    ) async throws {
        try await runSavepoint(at: CallSite(file: file, line: line), block)
    }
}
