/// Hears the life of every transaction of one database: how `MockDB`
/// keeps its transaction log. A database without one (`SQLiteDB`,
/// `PostgresDB`) pays one `nil` check per transition.
///
/// The transaction calls it from its own transitions, on the thread (or
/// task) that runs them, in this order: ``transactionDidOpen(_:bridged:enclosing:)``
/// once, ``transaction(_:didAdd:)`` for each hook,
/// ``transactionDidBeginSavepoint(_:)`` and ``transaction(_:didEndSavepoint:)``
/// around each savepoint (well nested), then
/// ``transaction(_:didEnd:)`` (more than once for a rollback: keep the
/// first) and, for a transaction whose `read` or `write` throws,
/// ``transaction(_:didFail:blockThrew:)``, before or after the end.
package protocol TransactionTracer: AnyObject, Sendable {
    /// A transaction opened; returns the trace it carries until it ends.
    ///
    /// - Parameters:
    ///   - transaction: The transaction, open.
    ///   - bridged: Whether it stands for a transaction the application
    ///     opened itself.
    ///   - enclosing: The innermost traced transaction (of any database)
    ///     whose block was running in this thread or task when it opened.
    func transactionDidOpen(
        _ transaction: DBReadTransaction, bridged: Bool, enclosing: TransactionTrace?
    ) -> TransactionTrace

    /// A hook was registered on the transaction.
    func transaction(_ trace: TransactionTrace, didAdd hook: TransactionHookKind)

    /// A savepoint began in the transaction.
    func transactionDidBeginSavepoint(_ trace: TransactionTrace)

    /// The innermost savepoint of the transaction ended: released
    /// (`.commit`), or rolled back (`.rollback`, also when its block threw),
    /// and with it the hooks registered since it began.
    func transaction(_ trace: TransactionTrace, didEndSavepoint completion: DBSavepointCompletion)

    /// The transaction ended.
    func transaction(_ trace: TransactionTrace, didEnd end: TransactionEnd)

    /// `read` or `write` is about to throw `error`; `blockThrew` tells
    /// whether the block or a finalization threw it (rather than the
    /// storage). Not called for a rollback on purpose (`writeOrRollBack`).
    func transaction(_ trace: TransactionTrace, didFail error: any Error, blockThrew: Bool)
}

/// How a transaction ended, as a ``TransactionTracer`` hears it.
package enum TransactionEnd: Sendable {
    case committed
    case rolledBack
    /// A read transaction's block returned or threw.
    case ended
}

/// A hook registered on a transaction.
package enum TransactionHookKind: Sendable {
    case finalization(key: String)
    case syncCompletion
    case asyncCompletion
}

/// What a traced transaction carries: its identity, and the tracer that
/// hears its transitions (`nil` when only the identity was asked for).
package final class TransactionTrace: Sendable {
    package let id: DBTransactionID
    package let tracer: (any TransactionTracer)?
    /// Where the tracer keeps the transaction (its own numbering).
    package let position: Int

    package init(id: DBTransactionID, tracer: (any TransactionTracer)?, position: Int = 0) {
        self.id = id
        self.tracer = tracer
        self.position = position
    }
}

extension DBReadTransaction {
    /// The identity of this transaction: equal for every call that
    /// receives this transaction, distinct from every other transaction's.
    ///
    /// ```swift
    /// final class MessageFinderSpy: MessageFinding {
    ///     let seen = Locked<[DBTransactionID]>([])
    ///     func unreadCount(for user: UserID, _ tx: DBReadTransaction) throws -> Int {
    ///         seen.withValue { $0.append(tx.transactionID) }
    ///         return 0
    ///     }
    /// }
    /// ```
    ///
    /// **Cost:** on `MockDB`, assigned when the transaction opens (its
    /// transaction log names it). Elsewhere, assigned on the first request:
    /// a transaction whose identity nobody asks for pays nothing.
    ///
    /// **Thread:** the thread (or task) that runs the block.
    ///
    /// - Warning: Asking for it after the block returned (an escaped
    ///   transaction) is a misuse, reported like any other use.
    public func transactionID(file: StaticString = #fileID, line: UInt = #line) -> DBTransactionID {
        checkActive(for: "transactionID", at: CallSite(file: file, line: line))
        return identity
    }

    /// The identity, assigned now if it was not yet; no misuse check (the
    /// caller checked).
    package var identity: DBTransactionID {
        if let trace { return trace.id }
        let trace = TransactionTrace(id: .next(), tracer: nil)
        self.trace = trace
        return trace.id
    }

    /// The innermost traced transaction whose block runs in this thread
    /// (a synchronous block) or task (an async block), if any.
    package static var currentTrace: TransactionTrace? {
        ActiveTransactions.innermostTrace ?? TaskActiveTransactions.innermostTrace
    }
}
