import Dispatch

extension DB {
    /// Calls `onCommit` after each commit that changed one of the given
    /// tables or key-value collections, with what changed.
    ///
    /// ```swift
    /// let observation = db.observeCommits(tables: ["message"]) { _ in inbox.reload() }
    /// ```
    ///
    /// **Transaction semantics:** once per commit that changed what it
    /// watches, with only that part (``DBChanges``); never for a rollback. A
    /// write already running may miss the changes it made before this call.
    ///
    /// **Thread:** `onCommit` runs on `queue`, in commit order, outside any
    /// transaction (it may open one). Each call is enqueued before `write`
    /// returns: `queue.sync {}` after a write waits for it.
    ///
    /// **Lifetime:** until ``DBCommitObservation/cancel()`` or deallocation.
    ///
    /// - Warning: Observing a `DB` other than `SQLiteDB` or `MockDB` stops
    ///   the process. Pass a serial queue, or calls may overlap and reorder.
    /// - Parameters:
    ///   - tables: Tables to watch, matched case-insensitively (ASCII);
    ///     changes name them as spelled here (every spelling given).
    ///   - keyValueCollections: ``KeyValueStore`` collections to watch.
    ///   - queue: Where `onCommit` runs; `nil` for a private serial queue.
    ///   - onCommit: Receives the changes of one commit that match.
    /// - Returns: The observation; keep it for as long as you observe.
    public func observeCommits(
        tables: Set<String> = [],
        keyValueCollections: Set<String> = [],
        queue: DispatchQueue? = nil,
        _ onCommit: @escaping @Sendable (DBChanges) -> Void
    ) -> DBCommitObservation {
        let registry = requireScope(for: "observeCommits").commitObservers
        let queue = queue ?? DispatchQueue(label: "TransactionKit.observeCommits")
        let flag = DBCommitObservation.CancelledFlag()
        let id = registry.add(tables: tables, collections: keyValueCollections) { changes in
            queue.async {
                if !flag.isCancelled {
                    onCommit(changes)
                }
            }
        }
        return DBCommitObservation(registry: registry, id: id, flag: flag)
    }

    /// The changes of each commit that changed one of the given tables or
    /// key-value collections, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await changes in db.commits(keyValueCollections: ["settings"]) {
    ///     await model.reloadSettings()
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of
    /// ``observeCommits(tables:keyValueCollections:queue:_:)``, registered
    /// by this call: commits before the iteration starts are buffered.
    ///
    /// **Executor:** the iterating task's.
    ///
    /// **Lifetime:** until the iterating task is cancelled or the sequence
    /// is deallocated; the sequence ends when the database is deallocated.
    ///
    /// - Warning: Only `SQLiteDB` and `MockDB` can be observed; another `DB`
    ///   stops the process. Iterate the sequence once.
    /// - Parameters:
    ///   - tables: Tables to watch, matched case-insensitively (ASCII);
    ///     changes name them as spelled here (every spelling given).
    ///   - keyValueCollections: ``KeyValueStore`` collections to watch.
    /// - Returns: An unbounded stream of the matching changes, one element
    ///   per commit.
    public func commits(
        tables: Set<String> = [],
        keyValueCollections: Set<String> = []
    ) -> AsyncStream<DBChanges> {
        let registry = requireScope(for: "commits").commitObservers
        let (stream, continuation) = AsyncStream<DBChanges>.makeStream(bufferingPolicy: .unbounded)
        let id = registry.add(
            tables: tables,
            collections: keyValueCollections,
            finish: { continuation.finish() },
            deliver: { changes in continuation.yield(changes) })
        continuation.onTermination = { [weak registry] _ in
            registry?.remove(id)
        }
        return stream
    }
}
