import TransactionKit

/// What a ``MockDB`` saw: every transaction it opened, in order, with its
/// kind, outcome and hooks, and every mock call made in one, in order
/// across all mocks. Read it with ``MockDB/transactionLog``.
///
/// The rules a manager follows read as values to `#expect` on:
///
/// ```swift
/// // These calls share one transaction (a read: one snapshot).
/// #expect(db.transactionLog.sharedTransaction(of: messages.page, messages.unreadCount)?.kind == .read)
/// // It was a write that committed.
/// #expect(messages.insert.ranOnlyInCommittedWrites)
/// // Nothing ran in a rolled-back one, nor in a rolled-back savepoint.
/// #expect(db.transactionLog.callsInRolledBackTransactions.isEmpty)
/// #expect(db.transactionLog.callsInRolledBackSavepoints.isEmpty)
/// // This order, across mocks.
/// #expect(db.transactionLog.calls(to: messages.insert, notifier.notify).map(\.member)
///     == [messages.insert.member, notifier.notify.member])
/// ```
///
/// **Savepoints** (`DBWriteTransaction.inSavepoint`): a savepoint that
/// rolls back takes the hooks registered inside it out of its
/// transaction's ``LoggedTransaction/hooks``, as it takes them out of the
/// transaction; the mock calls made inside it stay in the log, in order,
/// marked ``LoggedCall/isInRolledBackSavepoint`` (a test can then tell what
/// was tried from what was kept). ``LoggedTransaction/savepoints`` counts
/// them.
///
/// **What is logged:** every transaction that opened (a `read` or `write`
/// refused before its block ran, by a closed or read-only database or as a
/// nested transaction, is not), and every call to a ``MockMethod`` (or
/// variant) that received one of its transactions, or that ran, without
/// one, inside a block of this database in the same thread or task.
///
/// **On `SQLiteDB` and `PostgresDB`** (an integration test whose mocks
/// receive real transactions), the same facts hold per mock: the first
/// mock call that receives a transaction starts logging it, so
/// ``MockMethodCore/transactions`` and ``MockCall/transaction`` tell its
/// identity, kind, outcome, and the hooks and calls that came after. A
/// database without a log pays nothing until then;
/// ``/TransactionKit/DBReadTransaction/transactionID(file:line:)`` tells
/// the identity of any transaction.
///
/// A value: a snapshot taken when it was read.
public struct TransactionLog: Sendable, Equatable {
    /// Every transaction opened, in the order they opened.
    public let transactions: [LoggedTransaction]
    /// Every mock call made in a transaction, in the order made, across
    /// all mocks.
    public let calls: [LoggedCall]

    /// The transaction `id`, if it is in the log.
    ///
    /// - Parameter id: A transaction's identity.
    public subscript(id: DBTransactionID) -> LoggedTransaction? {
        transactions.first { $0.id == id }
    }

    /// The read transactions, in order.
    public var reads: [LoggedTransaction] { transactions.filter { $0.kind == .read } }

    /// The write transactions, in order.
    public var writes: [LoggedTransaction] { transactions.filter { $0.kind == .write } }

    /// The writes that rolled back (see ``LoggedTransaction/isRolledBack``).
    public var rolledBack: [LoggedTransaction] { transactions.filter(\.isRolledBack) }

    /// The mock calls made in writes that rolled back: empty when nothing
    /// ran in a rolled-back transaction. Calls undone by a savepoint's
    /// rollback in a write that committed are in
    /// ``callsInRolledBackSavepoints``.
    public var callsInRolledBackTransactions: [LoggedCall] {
        rolledBack.flatMap(\.calls)
    }

    /// The mock calls made inside savepoints that rolled back, in the order
    /// made, whatever their transaction's outcome: what they did was undone
    /// (see ``LoggedCall/isInRolledBackSavepoint``).
    ///
    /// ```swift
    /// #expect(db.transactionLog.callsInRolledBackSavepoints.map(\.member) == [rows.insert.member])
    /// ```
    public var callsInRolledBackSavepoints: [LoggedCall] {
        calls.filter(\.isInRolledBackSavepoint)
    }

    /// The transactions in which `method` was called, in order, each once.
    ///
    /// - Parameter method: A mock's method.
    public func transactions(of method: some TransactionLoggedMock) -> [LoggedTransaction] {
        transactions.filter { $0.contains(method) }
    }

    /// The calls to any of `methods`, in the order made: the order across
    /// mocks, without the calls to other methods.
    ///
    /// ```swift
    /// #expect(db.transactionLog.calls(to: messages.insert, outbox.enqueue).map(\.member)
    ///     == [messages.insert.member, outbox.enqueue.member])
    /// ```
    ///
    /// - Parameter methods: Mocks' methods.
    public func calls(to methods: any TransactionLoggedMock...) -> [LoggedCall] {
        let members = Set(methods.map(\.member))
        return calls.filter { members.contains($0.member) }
    }

    /// The one transaction in which every call to `methods` ran: `nil` when
    /// a method was not called in a transaction of this database, or when
    /// the calls ran in more than one.
    ///
    /// ```swift
    /// let shared = db.transactionLog.sharedTransaction(of: messages.page, messages.unreadCount)
    /// #expect(shared?.kind == .read)
    /// ```
    ///
    /// - Parameter methods: Mocks' methods.
    public func sharedTransaction(of methods: any TransactionLoggedMock...) -> LoggedTransaction? {
        var shared: DBTransactionID?
        for method in methods {
            let identities = method.transactionIDs
            guard !identities.isEmpty else { return nil }
            for identity in identities {
                guard let identity, shared == nil || shared == identity else { return nil }
                shared = identity
            }
        }
        return shared.flatMap { self[$0] }
    }
}

extension MockDB {
    /// Every transaction this database opened, and the mock calls made in
    /// them: see ``TransactionLog``.
    ///
    /// ```swift
    /// _ = try InboxManager(db: db, messages: messages).inbox(for: alice)
    /// #expect(db.transactionLog.transactions.count == 1)
    /// ```
    ///
    /// **Cost:** every transaction of a `MockDB` is logged; the log grows
    /// until ``resetTransactionLog()``. A database created with
    /// `logsTransactions: false` logs nothing.
    public var transactionLog: TransactionLog {
        recorder.log
    }

    /// Forgets the transactions and calls logged so far (a transaction
    /// still running is forgotten too). The mocks' own records
    /// (``MockMethodCore/callRecords``) keep their calls but no longer find
    /// their transactions.
    public func resetTransactionLog() {
        recorder.reset()
    }
}
