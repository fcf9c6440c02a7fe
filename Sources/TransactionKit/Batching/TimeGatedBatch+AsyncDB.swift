import Foundation

extension TimeGatedBatch {
    /// Calls the async `block` with each element of `objects` in order, in
    /// one write transaction of an ``AsyncDB`` until `yieldTxAfter` seconds
    /// have elapsed, then in the next.
    ///
    /// ```swift
    /// try await TimeGatedBatch.enumerateObjects(expiredMessageIDs, db: postgres) { id, tx in
    ///     try await messages.delete(id, tx)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of the synchronous
    /// `enumerateObjects` on a ``DB``: each transaction commits before the next begins; when `block` throws,
    /// its transaction rolls back, earlier ones stay committed, and the
    /// error is rethrown. An empty collection opens no transaction.
    ///
    /// **Executor:** the backend's, as for any async `write`.
    ///
    /// - Parameters:
    ///   - objects: The elements.
    ///   - db: The database to write.
    ///   - yieldTxAfter: Seconds after which a transaction commits and the
    ///     next begins (checked after each element).
    ///   - clock: Measures elapsed time; the system clock unless a test
    ///     injects one.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - block: The work for one element, in the current transaction.
    /// - Throws: What `block` throws, or ``DBError`` when a transaction
    ///   cannot begin or commit.
    public static func enumerateObjects<Objects: Collection & Sendable>(
        _ objects: Objects,
        db: some AsyncDB,
        yieldTxAfter: TimeInterval = 0.5,
        clock: some TimeGatedBatchClock = .system,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: @escaping @Sendable (Objects.Element, DBWriteTransaction) async throws -> Void
    ) async throws where Objects.Element: Sendable, Objects.Index: Sendable {
        var start = objects.startIndex
        while start != objects.endIndex {
            let first = start
            start = try await db.write(file: file, line: line) { tx in
                let deadline = BatchDeadline(clock: clock, seconds: yieldTxAfter)
                var index = first
                while index != objects.endIndex {
                    try await block(objects[index], tx)
                    index = objects.index(after: index)
                    if deadline.hasPassed { break }
                }
                return index
            }
        }
    }

    /// Calls the async `processBatch` until it returns 0, in one write
    /// transaction of an ``AsyncDB`` until `yieldTxAfter` seconds have
    /// elapsed, then in the next; returns how many it processed in all.
    ///
    /// ```swift
    /// let archived = try await TimeGatedBatch.processAll(db: postgres) { tx in
    ///     try await messages.archiveOldest(limit: 100, tx)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** those of the synchronous `processAll` on
    /// a ``DB``: each transaction commits before the next begins; when
    /// `processBatch` throws, `errorTxCompletion` decides whether the last
    /// one commits or rolls back, earlier ones stay committed, and the
    /// error is rethrown.
    ///
    /// **Executor:** the backend's, as for any async `write`.
    ///
    /// - Parameters:
    ///   - db: The database to write.
    ///   - yieldTxAfter: Seconds after which a transaction commits and the
    ///     next begins (checked after each batch).
    ///   - errorTxCompletion: Commit or roll back the last transaction when
    ///     a batch throws; rolls back by default.
    ///   - clock: Measures elapsed time; the system clock unless a test
    ///     injects one.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - processBatch: Processes one batch in the current transaction and
    ///     returns how many it processed: 0 (or less) ends the work.
    /// - Returns: The sum of what the batches returned.
    /// - Throws: What `processBatch` throws, or ``DBError`` when a
    ///   transaction cannot begin or commit.
    @discardableResult
    public static func processAll(
        db: some AsyncDB,
        yieldTxAfter: TimeInterval = 0.5,
        errorTxCompletion: ErrorCompletion = .rollBack,
        clock: some TimeGatedBatchClock = .system,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ processBatch: @escaping @Sendable (DBWriteTransaction) async throws -> Int
    ) async throws -> Int {
        var total = 0
        while true {
            let (processed, isDone, failure) = try await db.write(file: file, line: line) { tx in
                let deadline = BatchDeadline(clock: clock, seconds: yieldTxAfter)
                var processed = 0
                while true {
                    let count: Int
                    do {
                        count = try await processBatch(tx)
                    } catch {
                        if errorTxCompletion == .rollBack { throw error }
                        return (processed, true, Optional(error))
                    }
                    guard count > 0 else { return (processed, true, nil) }
                    processed += count
                    if deadline.hasPassed { return (processed, false, nil) }
                }
            }
            total += processed
            if let failure { throw failure }
            if isDone { return total }
        }
    }
}
