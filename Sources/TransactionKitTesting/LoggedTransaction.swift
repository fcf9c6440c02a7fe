import TransactionKit

/// One transaction in a ``MockDB``'s ``MockDB/transactionLog``: its
/// identity, kind, outcome, hooks, and the mock calls made in it.
///
/// ```swift
/// try manager.send("hi", to: 7)
///
/// let log = db.transactionLog
/// #expect(log.transactions.map(\.kind) == [.write])
/// #expect(log.transactions.first?.isCommittedWrite == true)
/// #expect(log.transactions.first?.calls.map(\.member) == [messages.insert.member])
/// ```
///
/// A value: a snapshot taken when the log was read. Read the log again to
/// see a transaction that was still running end.
public struct LoggedTransaction: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// Whether a transaction may write.
    public enum Kind: Sendable, Hashable {
        /// A `read` transaction.
        case read
        /// A `write` transaction.
        case write
    }

    /// How a transaction ended.
    public enum Outcome: Sendable, Hashable {
        /// Its block is still running (or its commit is under way).
        case running
        /// A write that committed.
        case committed
        /// A write that rolled back although its block did not throw: it
        /// asked to (`writeOrRollBack`'s `.rollBack`), or its commit failed
        /// (``LoggedTransaction/error`` tells why).
        case rolledBack
        /// Its block or a finalization threw (or its task was cancelled):
        /// a write rolled back, a read ended, and `read` or `write`
        /// rethrew the error.
        case threw
        /// A read whose block returned.
        case ended
    }

    /// The hooks registered on a transaction.
    public struct Hooks: Sendable, Hashable {
        /// The finalization keys, in the order they were first added.
        public var finalizations: [String]
        /// The number of sync completions registered.
        public var syncCompletions: Int
        /// The number of async completions registered.
        public var asyncCompletions: Int

        /// Creates a description of hooks, for comparing with ``LoggedTransaction/hooks``.
        ///
        /// - Parameters:
        ///   - finalizations: The finalization keys, in order.
        ///   - syncCompletions: The number of sync completions.
        ///   - asyncCompletions: The number of async completions.
        public init(finalizations: [String] = [], syncCompletions: Int = 0, asyncCompletions: Int = 0) {
            self.finalizations = finalizations
            self.syncCompletions = syncCompletions
            self.asyncCompletions = asyncCompletions
        }

        /// Whether no hook was registered.
        public var isEmpty: Bool {
            finalizations.isEmpty && syncCompletions == 0 && asyncCompletions == 0
        }
    }

    /// The savepoints of a write transaction, by how they ended (see
    /// `DBWriteTransaction.inSavepoint`).
    ///
    /// ```swift
    /// #expect(db.transactionLog.transactions.first?.savepoints == .init(released: 2, rolledBack: 1))
    /// ```
    public struct Savepoints: Sendable, Hashable {
        /// The number of savepoints whose block returned `.commit`.
        public var released: Int
        /// The number of savepoints that rolled back: their block returned
        /// `.rollback`, or threw.
        public var rolledBack: Int

        /// Creates counts of savepoints, for comparing with ``LoggedTransaction/savepoints``.
        ///
        /// - Parameters:
        ///   - released: The number released.
        ///   - rolledBack: The number rolled back.
        public init(released: Int = 0, rolledBack: Int = 0) {
            self.released = released
            self.rolledBack = rolledBack
        }
    }

    /// The transaction's identity, the one its
    /// ``/TransactionKit/DBReadTransaction/transactionID(file:line:)`` returns.
    public let id: DBTransactionID
    /// Read or write.
    public let kind: Kind
    /// Whether it stands for a transaction the application opened itself
    /// (`writeTransaction(bridging:)`). Always `false` on `MockDB`, which
    /// bridges nothing.
    public let isBridged: Bool
    /// The transaction, of this or another traced database, whose block was
    /// running in the same thread (or task) when this one opened: a
    /// transaction of another `MockDB` opened inside it, for instance.
    /// (A transaction of the same database inside another is a misuse: it
    /// is reported and never opens, so it is not in the log.)
    public let enclosing: DBTransactionID?
    /// How it ended.
    public let outcome: Outcome
    /// What `read` or `write` threw (the block's error, or the commit's),
    /// described; `nil` when it did not throw.
    public let error: String?
    /// The hooks registered on it, but for those registered inside a
    /// savepoint that rolled back, which were discarded with it.
    public let hooks: Hooks
    /// Its savepoints, by how they ended (savepoints still open are not
    /// counted).
    public let savepoints: Savepoints
    /// The mock calls made in it, in order, across every mock; those made
    /// inside a savepoint that rolled back are marked
    /// (``LoggedCall/isInRolledBackSavepoint``).
    public let calls: [LoggedCall]
    /// The file (`#fileID`) of the `read` or `write` that opened it.
    public let fileID: String
    /// The line of the `read` or `write` that opened it.
    public let line: Int

    /// Whether another transaction's block was running in this thread or
    /// task when it opened (see ``enclosing``).
    public var isNested: Bool { enclosing != nil }

    /// Whether it is a write that committed.
    public var isCommittedWrite: Bool { kind == .write && outcome == .committed }

    /// Whether it is a write that did not commit (rolled back, on purpose
    /// or because its block threw). Nothing it wrote persists, and its
    /// completions never ran.
    public var isRolledBack: Bool { kind == .write && (outcome == .rolledBack || outcome == .threw) }

    /// Whether the calls made in it include one to `method`.
    ///
    /// - Parameter method: A mock's method.
    public func contains(_ method: some TransactionLoggedMock) -> Bool {
        calls.contains { $0.member == method.member }
    }

    /// `tx#12 write committed (Inbox.swift:40): 2 calls`.
    public var description: String {
        "\(id) \(kind) \(outcome) (\(fileID):\(line)): \(calls.count) call\(calls.count == 1 ? "" : "s")"
    }
}
