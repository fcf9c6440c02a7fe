import Dispatch

extension DBWriteTransaction {
    /// Registers work to run inside this transaction just before it commits,
    /// once per key: work that many writes would repeat runs once.
    ///
    /// ```swift
    /// tx.addFinalization(key: "conversation-\(id)") { tx in
    ///     try conversations.recomputePreview(id, tx)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** finalizations run after the write block
    /// returned and before the commit, in the order their keys were first
    /// added; the last block registered for a key wins. A finalization may
    /// write and add completions; if it throws, the transaction rolls back
    /// and `write` rethrows.
    ///
    /// **Thread:** runs on the thread that ran the write block.
    ///
    /// - Warning: Stops the process when called after the write block
    ///   returned (escaped transaction), or from inside a finalization.
    /// - Parameters:
    ///   - key: Identifies the work; the last block registered for a key wins.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work, given this transaction.
    public func addFinalization(
        key: String,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @escaping (DBWriteTransaction) throws -> Void
    ) {
        addFinalization(key: key, at: CallSite(file: file, line: line), block)
    }

    /// Registers work to run right after this transaction commits, before
    /// `write` returns.
    ///
    /// ```swift
    /// try db.write { tx in
    ///     try messages.insert(message, tx)
    ///     tx.addSyncCompletion { cache.invalidate(message.conversationID) }
    /// }
    /// // The cache is already invalidated here.
    /// ```
    ///
    /// **Transaction semantics:** runs only after a successful commit, outside
    /// the transaction (it may open new transactions), in registration order.
    /// It never runs when the write rolls back.
    ///
    /// **Thread:** the thread (or task) that called `write`.
    ///
    /// - Warning: Stops the process when called after the write block returned.
    /// - Parameters:
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work.
    public func addSyncCompletion(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @escaping () -> Void
    ) {
        addSyncCompletion(at: CallSite(file: file, line: line), block)
    }

    /// Registers work to run on a dispatch queue after this transaction commits.
    ///
    /// ```swift
    /// tx.addAsyncCompletion(on: .main) { banner.show("Sent") }
    /// ```
    ///
    /// **Transaction semantics:** submitted with `queue.async` only after a
    /// successful commit, once the sync completions ran; never after a
    /// rollback. `MockDB.waitForAsyncCompletions()` and
    /// `SQLiteDB.waitForAsyncCompletions()` let tests wait for it.
    ///
    /// **Thread:** the queue you name.
    ///
    /// - Warning: Stops the process when called after the write block returned.
    /// - Parameters:
    ///   - queue: Where the block runs.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work.
    public func addAsyncCompletion(
        on queue: DispatchQueue,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @escaping @Sendable () -> Void
    ) {
        addAsyncCompletion(at: CallSite(file: file, line: line), .queue(queue, block))
    }

    /// Registers async work to run on a task executor after this transaction
    /// commits.
    ///
    /// ```swift
    /// tx.addAsyncCompletion(on: serverExecutor) { await push.notify(recipient) }
    /// ```
    ///
    /// **Transaction semantics:** started as a `Task` that prefers `executor`,
    /// only after a successful commit, once the sync completions ran; never
    /// after a rollback.
    ///
    /// **Executor:** `executor`, as a task executor preference (task
    /// executors need iOS 18, macOS 15, tvOS 18 or watchOS 11; on older
    /// systems, pass a queue to ``addAsyncCompletion(on:file:line:_:)-(DispatchQueue,_,_,_)``).
    ///
    /// - Warning: Stops the process when called after the write block returned.
    /// - Parameters:
    ///   - executor: The executor the task prefers.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - operation: The work.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public func addAsyncCompletion(
        on executor: any TaskExecutor,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: @escaping @Sendable () async -> Void
    ) {
        let start: @Sendable (@escaping @Sendable () async -> Void) -> Void = { operation in
            Task(executorPreference: executor) { await operation() }
        }
        addAsyncCompletion(at: CallSite(file: file, line: line), .task(start: start, operation))
    }
}
