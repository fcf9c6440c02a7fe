import CTransactionKitMisuseHook

/// An opaque read transaction, handed to the block of a ``DB``'s `read`.
///
/// Business logic passes it along to finders and never looks inside:
///
/// ```swift
/// func unreadCount(for user: UserID) throws -> Int {
///     try db.read { tx in try messages.unreadCount(for: user, tx) }
/// }
/// ```
///
/// **Transaction semantics:** every read through it sees one snapshot. A
/// ``DBWriteTransaction`` is a `DBReadTransaction`, so it can be passed to
/// code that only reads; the reverse does not compile.
///
/// **Thread:** not `Sendable`; the compiler keeps it on the thread that runs
/// the block. An ``AsyncDB`` block's transaction belongs to its task instead.
///
/// **Lifetime:** valid only while its block runs. Do not store it or capture
/// it in an escaping closure.
///
/// - Warning: Using it after its block returned (an *escaped transaction*)
///   stops the process with a message naming the call site, in every ``DB``.
///   Only a ``DB`` creates transactions.
public class DBReadTransaction {
    // The transaction's lifecycle lives in the transaction object itself
    // (see DBReadTransaction+Lifecycle.swift), so that a transaction costs one
    // allocation, not two.
    //
    // `state` and the owner thread are atomic words: the misuse check reads
    // them from whatever thread a transaction was smuggled to, while the
    // thread that runs the block may be changing them. Relaxed ordering is
    // enough: the check only needs a value that is not torn, and any value it
    // can see on a foreign thread is a misuse. They are the object's first
    // stored property, read and written only through the C target's atomics
    // at the object's address (`lifecycleWords`), not `Synchronization.Atomic`,
    // which needs iOS 18. The other properties are used
    // only on the thread that runs the block, or in strict happens-before
    // order around it (see DBReadTransaction+Lifecycle.swift), and no access
    // to them spans a call, so their runtime exclusivity checks are turned
    // off: the checks are paid on every transaction (Benchmarks/README.md,
    // "What safety costs": `empty_read_tx` and `empty_write_tx`, mockdb).

    /// The lifecycle state (`State`'s raw value) and the thread that runs
    /// the block, as a number (`pthread_self()`; 0 until the transaction
    /// opens). Must stay the first stored property: see `lifecycleWords`.
    private var atomicWords = transactionkit_transaction_words(state: Int(State.pending.rawValue), owner: 0)
    package let kind: TransactionKind
    package let openedAt: CallSite
    package let scope: DatabaseScope
    /// The backend's connection while the block runs (`nil` for a database
    /// without connections). Dropped when the transaction ends; bridges read
    /// it through `connection(as:bridge:at:)`.
    @exclusivity(unchecked) package internal(set) var connection: AnyObject?
    /// The next transaction out whose block runs on the same thread, while
    /// this one's block runs (see ``ActiveTransactions``).
    @exclusivity(unchecked) package var outerActive: UnsafeMutableRawPointer?
    /// Finalizations, completions and recorded changes, allocated by the
    /// first of them.
    @exclusivity(unchecked) var hooks: Hooks?
    /// What the backend's ``KeyValueStorage`` keeps for this transaction
    /// (MockDB: a read transaction's snapshot), set on first use. Dropped
    /// when the transaction ends.
    @exclusivity(unchecked) package var storageContext: AnyObject?
    /// The reads of an observed fetch (``DB/observe(tracking:file:line:_:)``),
    /// while the fetch runs in this transaction.
    @exclusivity(unchecked) package var readRecorder: ReadRecorder?
    /// The identity, and the tracer that hears this transaction's life
    /// (see ``TransactionTracer``): set when it opens on a traced database,
    /// or when its identity is first asked for.
    @exclusivity(unchecked) package var trace: TransactionTrace?

    package init(kind: TransactionKind, openedAt: CallSite, scope: DatabaseScope) {
        self.kind = kind
        self.openedAt = openedAt
        self.scope = scope
    }


    /// Whether the transaction's block is still running, so that the
    /// transaction may be used.
    ///
    /// Prefer ``preconditionActive(file:line:)`` in hand-written code: an
    /// inactive transaction is always a bug.
    public var isActive: Bool {
        state == .open || state == .finalizing
    }

    /// Reports a misuse if the transaction's block has returned, or if it is
    /// used from a thread other than the one running its block (from a task
    /// other than the one running it, for an ``AsyncDB`` block).
    ///
    /// Real finders get this check for free through
    /// `SQLiteDB.shimOnlyBridge(_:)`. Call it at the top of hand-written mock
    /// finders, so that a unit test on `MockDB` catches an escaped transaction
    /// exactly where production would:
    ///
    /// ```swift
    /// final class MessageFinderMock: MessageFinding {
    ///     func unreadCount(for user: UserID, _ tx: DBReadTransaction) throws -> Int {
    ///         tx.preconditionActive()
    ///         return stubbedUnreadCount
    ///     }
    /// }
    /// ```
    ///
    /// In production the misuse stops the process; under a test runner (a
    /// test binary that links `TransactionKitTesting`) it fails the running
    /// test at this call site and returns, and the run goes on.
    ///
    /// - Parameters:
    ///   - file: The call site's file, for the message; leave the default.
    ///   - line: The call site's line, for the message; leave the default.
    public func preconditionActive(file: StaticString = #fileID, line: UInt = #line) {
        checkActive(for: "preconditionActive", at: CallSite(file: file, line: line))
    }
}

/// Transactions stay on the thread that runs their block.
@available(*, unavailable, message: "A transaction is valid only inside its block, on the thread that runs it.")
extension DBReadTransaction: Sendable {}
