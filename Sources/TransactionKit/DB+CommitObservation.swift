import Dispatch

extension DB {
    /// Calls `onCommit` after each commit that changed one of the given
    /// tables or key-value collections, with what changed.
    ///
    /// ```swift
    /// let observation = db.observeCommits(tables: ["message"], keyValueCollections: ["lastSeen"]) { changes in
    ///     inbox.reload()
    /// }
    /// // …
    /// observation.cancel()
    /// ```
    ///
    /// **Transaction semantics:** an observer hears about committed write
    /// transactions only: never about a rollback (a throwing block, a
    /// ``DB/writeOrRollBack(file:line:_:)-1ej2j`` that rolled back, a failed
    /// commit, a cancelled task), never about a commit that changed nothing
    /// it registered for, and once per commit however many rows changed.
    /// It receives only the part of the changes it registered for (see
    /// ``DBChanges``). It hears about transactions that commit after this
    /// method returned; a transaction already running may be reported
    /// without the changes it made before the registration (`SQLiteDB`
    /// watches tables only while someone observes).
    ///
    /// **Thread:** `onCommit` runs on `queue`, one call at a time when
    /// `queue` is serial (the default is a private serial queue), in commit
    /// order: deliveries are enqueued while the database still serializes
    /// writes, before the next write can commit, whatever thread each write
    /// ran on. The delivery is enqueued before `write` returns, so
    /// `queue.sync {}` after a write waits until `onCommit` ran for it. The
    /// callback runs outside any transaction and may open new ones.
    ///
    /// **Lifetime:** until ``DBCommitObservation/cancel()`` or until the
    /// returned observation is deallocated; keep it.
    ///
    /// - Warning: Only `SQLiteDB` and `MockDB` can be observed; another `DB`
    ///   stops the process. Pass a serial queue: on a concurrent queue the
    ///   calls may overlap and run out of order.
    /// - Parameters:
    ///   - tables: Tables to watch, matched case-insensitively (ASCII) as
    ///     SQLite does.
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
    /// ``observeCommits(tables:keyValueCollections:queue:_:)``: committed
    /// transactions only, once per commit, only the matching changes. The
    /// registration happens when this method is called, not when the
    /// iteration starts: commits made in between are buffered (without
    /// limit) and delivered in commit order.
    ///
    /// **Executor:** the iterating task's.
    ///
    /// **Lifetime:** the observation ends when the iterating task is
    /// cancelled or the sequence is deallocated; the sequence ends when the
    /// database is deallocated.
    ///
    /// - Warning: Only `SQLiteDB` and `MockDB` can be observed; another `DB`
    ///   stops the process. Iterate the sequence once.
    /// - Parameters:
    ///   - tables: Tables to watch, matched case-insensitively (ASCII).
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
