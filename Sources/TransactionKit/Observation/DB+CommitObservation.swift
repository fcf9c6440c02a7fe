import Dispatch

extension DB {
    /// Calls `onCommit` after each commit that changed one of the given
    /// tables or key-value collections, with what changed; given neither,
    /// after every commit.
    ///
    /// ```swift
    /// let observation = db.observeCommits(tables: ["message"]) { _ in inbox.reload() }
    /// let everything = db.observeCommits { changes in log.info("committed \(changes)") }
    /// ```
    ///
    /// **Transaction semantics:** once per commit that changed what it
    /// watches, with only that part (``DBChanges``); never for a rollback. A
    /// write already running may miss the changes it made before this call.
    ///
    /// **Without tables or collections** (both `nil`, the default), it
    /// hears every commit, with everything the commit changed: the tables
    /// `SQLiteDB` saw change or a transaction declared, and the key-value
    /// collections written; empty for a commit that changed nothing
    /// detectable (a `MockDB` write whose mocks declared no change). An
    /// empty set is a filter that matches nothing: `tables: []` alone
    /// hears nothing.
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
    ///     changes name them as spelled here (every spelling given). `nil`
    ///     (with `keyValueCollections` `nil` too): every commit.
    ///   - keyValueCollections: ``KeyValueStore`` collections to watch.
    ///     `nil` (with `tables` `nil` too): every commit.
    ///   - queue: Where `onCommit` runs; `nil` for a private serial queue.
    ///   - onCommit: Receives the changes of one commit that match.
    /// - Returns: The observation; keep it for as long as you observe.
    public func observeCommits(
        tables: Set<String>? = nil,
        keyValueCollections: Set<String>? = nil,
        queue: DispatchQueue? = nil,
        _ onCommit: @escaping @Sendable (DBChanges) -> Void
    ) -> DBCommitObservation {
        let registry = requireScope(for: "observeCommits").commitObservers
        let queue = queue ?? DispatchQueue(label: "TransactionKit.observeCommits")
        let flag = DBCommitObservation.CancelledFlag()
        let id = registry.add(
            tables: tables ?? [], collections: keyValueCollections ?? [],
            everyCommit: tables == nil && keyValueCollections == nil
        ) { changes in
            queue.async {
                if !flag.isCancelled {
                    onCommit(changes)
                }
            }
        }
        return DBCommitObservation(registry: registry, id: id, flag: flag)
    }

    /// The changes of each commit that changed one of the given tables or
    /// key-value collections (given neither, of every commit), as an
    /// asynchronous sequence.
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
    /// Without tables or collections, one element per commit, as
    /// ``observeCommits(tables:keyValueCollections:queue:_:)`` hears them.
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
    ///     changes name them as spelled here (every spelling given). `nil`
    ///     (with `keyValueCollections` `nil` too): every commit.
    ///   - keyValueCollections: ``KeyValueStore`` collections to watch.
    ///     `nil` (with `tables` `nil` too): every commit.
    /// - Returns: An unbounded stream of the matching changes, one element
    ///   per commit.
    public func commits(
        tables: Set<String>? = nil,
        keyValueCollections: Set<String>? = nil
    ) -> AsyncStream<DBChanges> {
        let registry = requireScope(for: "commits").commitObservers
        let (stream, continuation) = AsyncStream<DBChanges>.makeStream(bufferingPolicy: .unbounded)
        let id = registry.add(
            tables: tables ?? [],
            collections: keyValueCollections ?? [],
            everyCommit: tables == nil && keyValueCollections == nil,
            finish: { continuation.finish() },
            deliver: { changes in continuation.yield(changes) })
        continuation.onTermination = { [weak registry] _ in
            registry?.remove(id)
        }
        return stream
    }
}
