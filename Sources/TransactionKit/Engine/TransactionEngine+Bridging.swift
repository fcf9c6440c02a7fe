/// Transactions bridged from a transaction that the application opened
/// itself, on the storage a backend adopted: the third way for a
/// transaction to begin, beside the engine's `read` and `write`.
///
/// The backend learns when the application's transaction is about to
/// commit, has committed or rolled back (SQLite: a GRDB transaction
/// observer) and forwards each event here, so that a bridged transaction
/// runs the same hooks, in the same order, with the same misuse checks, as
/// one the engine opened.
extension TransactionEngine {
    /// Begins a write transaction that stands for the application's write
    /// transaction on `connection`, active on this thread until the backend
    /// reports its end. Transactions of the same database opened on this
    /// thread meanwhile are reported as nested.
    ///
    /// - Throws: `DBMisuseError` when a transaction of this database is
    ///   already active on this thread (reported first).
    package func beginBridgedWrite(connection: AnyObject, at callSite: CallSite) throws(DBMisuseError) -> DBWriteTransaction {
        try checkBridgeNotNested(.write, at: callSite)
        let transaction = DBWriteTransaction(kind: .write, openedAt: callSite, scope: scope)
        begin(transaction, connection)
        return transaction
    }

    /// Begins a read transaction that stands for the application's read
    /// transaction on `connection`. Unlike a bridged write, it is not kept
    /// in this thread's active list: the backend cannot tell when the
    /// application's read ends (it ends it with ``bridgedDidEnd(_:)`` when
    /// it finds out).
    package func beginBridgedRead(connection: AnyObject, at callSite: CallSite) throws(DBMisuseError) -> DBReadTransaction {
        try checkBridgeNotNested(.read, at: callSite)
        let transaction = DBReadTransaction(kind: .read, openedAt: callSite, scope: scope)
        transaction.open(connection: connection, bridged: true)
        return transaction
    }

    private func checkBridgeNotNested(_ kind: TransactionKind, at callSite: CallSite) throws(DBMisuseError) {
        if let misuse = ActiveTransactions.checkNotNested(in: scope, kind: kind, at: callSite) {
            throw misuse
        }
    }

    private func begin(_ transaction: DBReadTransaction, _ connection: AnyObject) {
        transaction.open(connection: connection, bridged: true)
        ActiveTransactions.begin(transaction)
    }

    /// A block that used a bridged write transaction returned, inside the
    /// application's transaction: runs the finalizations registered so far,
    /// where they may still write, and keeps the transaction open.
    package static func bridgedBlockDidReturn(_ transaction: DBWriteTransaction) throws {
        try transaction.runPendingFinalizations(transaction)
    }

    /// The application's transaction is about to commit: runs the bridged
    /// transaction's finalizations. An error thrown here makes the
    /// application's transaction roll back.
    package static func bridgedWillCommit(_ transaction: DBWriteTransaction) throws {
        try transaction.runFinalizations(transaction)
    }

    /// The application's transaction committed: tells the commit observers,
    /// then runs the sync completions (still on the thread that committed,
    /// with the transaction still active there, so that a completion that
    /// opens a transaction of this database is reported as nested) and
    /// schedules the async ones.
    package static func bridgedDidCommit(_ transaction: DBWriteTransaction, detected: DBChanges) {
        notifyCommit(transaction, detected)
        transaction.didCommit()
        ActiveTransactions.end(transaction)
    }

    /// The application's transaction rolled back: no hook runs.
    package static func bridgedDidRollBack(_ transaction: DBReadTransaction) {
        transaction.rollBack()
        ActiveTransactions.end(transaction)
    }

    /// A bridged read transaction ended with the application's read.
    package static func bridgedDidEnd(_ transaction: DBReadTransaction) {
        transaction.closeRead()
    }
}
