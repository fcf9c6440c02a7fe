import Foundation

/// Long work split across write transactions by elapsed time, so that a
/// job over many rows neither holds the writer for seconds nor pays a
/// commit per row.
///
/// ```swift
/// // One transaction until half a second has elapsed, then the next.
/// try TimeGatedBatch.enumerateObjects(expiredMessageIDs, db: db, yieldTxAfter: 0.5) { id, tx in
///     try messages.delete(id, tx)
/// }
///
/// // Batches until one finds nothing left to do; the number processed.
/// let archived = try TimeGatedBatch.processAll(db: db, yieldTxAfter: 0.5) { tx in
///     try messages.archiveOldest(limit: 100, tx)
/// }
/// ```
///
/// **Transaction semantics:** each transaction is an ordinary `write`:
/// finalizations, completions and commit observers run per transaction.
/// Work committed by an earlier transaction stays committed when a later
/// one fails: split work only where every prefix of it is a consistent
/// state of the database. Where each element takes about as long as the
/// next, fixed-size batches are simpler.
///
/// **Time:** read from the `clock` parameter after each element or batch
/// (``SystemBatchClock`` by default). A transaction ends once
/// `yieldTxAfter` seconds have elapsed since it began; it always processes
/// at least one element or batch, and a `yieldTxAfter` of 0 gives each its
/// own. Inject a clock in tests to decide where transactions split.
///
/// - Warning: Like any `write`, calling these from inside a transaction of
///   the same database is a nested transaction (a misuse).
public enum TimeGatedBatch {
    /// What becomes of the last transaction when a batch throws.
    public enum ErrorCompletion: Sendable, Hashable {
        /// Commit what the last transaction wrote, the failing batch's
        /// writes included, then rethrow.
        case commit
        /// Roll back the last transaction (all of its batches), then
        /// rethrow, as a throwing `write` does.
        case rollBack
    }

    /// Calls `block` with each element of `objects` in order, in one write
    /// transaction until `yieldTxAfter` seconds have elapsed, then in the
    /// next.
    ///
    /// ```swift
    /// try TimeGatedBatch.enumerateObjects(expiredMessageIDs, db: db) { id, tx in
    ///     try messages.delete(id, tx)
    /// }
    /// ```
    ///
    /// **Transaction semantics:** each transaction commits before the next
    /// begins. When `block` throws, its transaction rolls back (the
    /// elements it had processed too), earlier transactions stay
    /// committed, no further element is read, and the error is rethrown.
    /// An empty sequence opens no transaction.
    ///
    /// **Thread:** the calling thread; the sequence is iterated there,
    /// inside the transactions, once.
    ///
    /// - Parameters:
    ///   - objects: The elements, iterated once.
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
    public static func enumerateObjects<Objects: Sequence>(
        _ objects: Objects,
        db: some DB,
        yieldTxAfter: TimeInterval = 0.5,
        clock: some TimeGatedBatchClock = .system,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ block: (Objects.Element, DBWriteTransaction) throws -> Void
    ) throws {
        var iterator = objects.makeIterator()
        var next = iterator.next()
        while next != nil {
            try db.write(file: file, line: line) { tx in
                let deadline = BatchDeadline(clock: clock, seconds: yieldTxAfter)
                while let element = next {
                    try block(element, tx)
                    next = iterator.next()
                    if deadline.hasPassed { return }
                }
            }
        }
    }

    /// Calls `processBatch` until it returns 0, in one write transaction
    /// until `yieldTxAfter` seconds have elapsed, then in the next; returns
    /// how many it processed in all.
    ///
    /// ```swift
    /// let archived = try TimeGatedBatch.processAll(db: db, errorTxCompletion: .commit) { tx in
    ///     try messages.archiveOldest(limit: 100, tx)   // the number archived
    /// }
    /// ```
    ///
    /// **Transaction semantics:** each transaction commits before the next
    /// begins; the one whose batch returned 0 commits too (it may have
    /// written). When `processBatch` throws, `errorTxCompletion` decides
    /// whether the last transaction commits or rolls back; earlier ones
    /// stay committed; the error is rethrown either way.
    ///
    /// **Thread:** the calling thread.
    ///
    /// - Parameters:
    ///   - db: The database to write.
    ///   - yieldTxAfter: Seconds after which a transaction commits and the
    ///     next begins (checked after each batch).
    ///   - errorTxCompletion: Commit or roll back the last transaction when
    ///     a batch throws; rolls back by default, as a throwing `write` does.
    ///   - clock: Measures elapsed time; the system clock unless a test
    ///     injects one.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    ///   - processBatch: Processes one batch in the current transaction and
    ///     returns how many it processed: 0 (or less) when nothing was
    ///     left, which ends the work.
    /// - Returns: The sum of what the batches returned.
    /// - Throws: What `processBatch` throws, or ``DBError`` when a
    ///   transaction cannot begin or commit.
    @discardableResult
    public static func processAll(
        db: some DB,
        yieldTxAfter: TimeInterval = 0.5,
        errorTxCompletion: ErrorCompletion = .rollBack,
        clock: some TimeGatedBatchClock = .system,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ processBatch: (DBWriteTransaction) throws -> Int
    ) throws -> Int {
        var total = 0
        var isDone = false
        while !isDone {
            var failure: (any Error)?
            try db.write(file: file, line: line) { tx in
                let deadline = BatchDeadline(clock: clock, seconds: yieldTxAfter)
                while true {
                    let processed: Int
                    do {
                        processed = try processBatch(tx)
                    } catch {
                        if errorTxCompletion == .rollBack { throw error }
                        failure = error
                        return
                    }
                    guard processed > 0 else {
                        isDone = true
                        return
                    }
                    total += processed
                    if deadline.hasPassed { return }
                }
            }
            if let failure { throw failure }
        }
        return total
    }
}
