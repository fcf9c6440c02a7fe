import TransactionKit

/// Keeps a ``MockDB``'s transaction log: the ``TransactionTracer`` of its
/// scope, which hears every transaction's life, and the place mock methods
/// record their calls.
final class MockTransactionRecorder: TransactionTracer {
    private struct Entry {
        let id: DBTransactionID
        let kind: LoggedTransaction.Kind
        let isBridged: Bool
        let enclosing: DBTransactionID?
        let fileID: String
        let line: Int
        var end: TransactionEnd?
        var threw = false
        var error: String?
        var hooks = LoggedTransaction.Hooks()
        var calls: [LoggedCall] = []

        var outcome: LoggedTransaction.Outcome {
            guard let end else { return .running }
            if threw { return .threw }
            switch end {
            case .committed: return .committed
            case .rolledBack: return .rolledBack
            case .ended: return .ended
            }
        }

        var snapshot: LoggedTransaction {
            LoggedTransaction(
                id: id, kind: kind, isBridged: isBridged, enclosing: enclosing, outcome: outcome, error: error,
                hooks: hooks, calls: calls, fileID: fileID, line: line)
        }
    }

    private struct State {
        var entries: [Entry] = []
        /// Entries by identity: identities grow, so the first entry's
        /// identity and a binary search would do, but a reset log starts
        /// anywhere; a dictionary keeps it simple.
        var index: [DBTransactionID: Int] = [:]
        var calls: [LoggedCall] = []
    }

    private let state = LockedValue(State())

    // MARK: - TransactionTracer

    func transactionDidOpen(
        _ transaction: DBReadTransaction, bridged: Bool, enclosing: TransactionTrace?
    ) -> TransactionTrace {
        start(transaction, id: .next(), bridged: bridged, enclosing: enclosing?.id)
    }

    func transaction(_ trace: TransactionTrace, didAdd hook: TransactionHookKind) {
        update(trace.id) { entry in
            switch hook {
            case let .finalization(key):
                if !entry.hooks.finalizations.contains(key) { entry.hooks.finalizations.append(key) }
            case .syncCompletion: entry.hooks.syncCompletions += 1
            case .asyncCompletion: entry.hooks.asyncCompletions += 1
            }
        }
    }

    func transaction(_ trace: TransactionTrace, didEnd end: TransactionEnd) {
        update(trace.id) { entry in
            if entry.end == nil { entry.end = end }
        }
    }

    func transaction(_ trace: TransactionTrace, didFail error: any Error, blockThrew: Bool) {
        let description = String(describing: error)
        update(trace.id) { entry in
            if blockThrew { entry.threw = true }
            if entry.error == nil { entry.error = description }
        }
    }

    /// Starts logging `transaction`, of a database without a log
    /// (`SQLiteDB`, `PostgresDB`), when a mock first receives it: a log of
    /// its own, which hears the rest of its life through the same
    /// transitions as a `MockDB` transaction (hooks registered before are
    /// not in it). Keeps the identity it may already have.
    ///
    /// - Warning: Call it on the thread (or task) that runs the block of
    ///   the active `transaction`.
    static func adopt(_ transaction: DBReadTransaction) -> TransactionTrace {
        let recorder = MockTransactionRecorder()
        let id = transaction.trace?.id ?? DBTransactionID.next()
        let trace = recorder.start(
            transaction, id: id, bridged: false, enclosing: ActiveTransactions.innermostTrace?.id)
        transaction.trace = trace
        return trace
    }

    private func start(
        _ transaction: DBReadTransaction, id: DBTransactionID, bridged: Bool, enclosing: DBTransactionID?
    ) -> TransactionTrace {
        let entry = Entry(
            id: id, kind: transaction.kind == .read ? .read : .write, isBridged: bridged, enclosing: enclosing,
            fileID: "\(transaction.openedAt.file)", line: Int(transaction.openedAt.line))
        state.withLock { state in
            state.index[id] = state.entries.count
            state.entries.append(entry)
        }
        return TransactionTrace(id: id, tracer: self)
    }

    private func update(_ id: DBTransactionID, _ body: (inout Entry) -> Void) {
        state.withLock { state in
            guard let position = state.index[id] else { return }
            body(&state.entries[position])
        }
    }

    // MARK: - Calls and reading

    /// Records a call to `member` in the transaction `id`.
    func recordCall(to member: MockMember, in id: DBTransactionID) {
        let call = LoggedCall(member: member, transaction: id)
        state.withLock { state in
            guard let position = state.index[id] else { return }
            state.entries[position].calls.append(call)
            state.calls.append(call)
        }
    }

    /// The logged transaction `id`, as it is now.
    func transaction(_ id: DBTransactionID) -> LoggedTransaction? {
        state.withLock { state in
            state.index[id].map { state.entries[$0].snapshot }
        }
    }

    var log: TransactionLog {
        state.withLock { state in
            TransactionLog(transactions: state.entries.map(\.snapshot), calls: state.calls)
        }
    }

    /// Forgets every transaction and call logged so far.
    func reset() {
        state.withLock { $0 = State() }
    }
}
