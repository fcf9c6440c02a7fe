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
        let file: StaticString
        let line: UInt
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
                hooks: hooks, calls: calls, fileID: "\(file)", line: Int(line))
        }
    }

    private struct State {
        var entries: [Entry] = []
        /// The number of entries ``reset()`` forgot: a trace's position,
        /// less this, is its entry's index.
        var forgotten = 0
        var calls: [LoggedCall] = []

        /// The index of `trace`'s entry, if it is still in the log.
        func index(of trace: TransactionTrace) -> Int? {
            let index = trace.position - forgotten
            guard index >= 0, index < entries.count, entries[index].id == trace.id else { return nil }
            return index
        }
    }

    private let state = LockedValue(State())

    // MARK: - TransactionTracer

    func transactionDidOpen(
        _ transaction: DBReadTransaction, bridged: Bool, enclosing: TransactionTrace?
    ) -> TransactionTrace {
        start(transaction, id: .next(), bridged: bridged, enclosing: enclosing?.id)
    }

    func transaction(_ trace: TransactionTrace, didAdd hook: TransactionHookKind) {
        update(trace) { entry in
            switch hook {
            case let .finalization(key):
                if !entry.hooks.finalizations.contains(key) { entry.hooks.finalizations.append(key) }
            case .syncCompletion: entry.hooks.syncCompletions += 1
            case .asyncCompletion: entry.hooks.asyncCompletions += 1
            }
        }
    }

    func transaction(_ trace: TransactionTrace, didEnd end: TransactionEnd) {
        update(trace) { entry in
            if entry.end == nil { entry.end = end }
        }
    }

    func transaction(_ trace: TransactionTrace, didFail error: any Error, blockThrew: Bool) {
        let description = String(describing: error)
        update(trace) { entry in
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
            file: transaction.openedAt.file, line: transaction.openedAt.line)
        let position = state.withLock { state in
            state.entries.append(entry)
            return state.forgotten + state.entries.count - 1
        }
        return TransactionTrace(id: id, tracer: self, position: position)
    }

    private func update(_ trace: TransactionTrace, _ body: (inout Entry) -> Void) {
        state.withLock { state in
            guard let index = state.index(of: trace) else { return }
            body(&state.entries[index])
        }
    }

    // MARK: - Calls and reading

    /// Records a call to `member` in the transaction of `trace`.
    func recordCall(to member: MockMember, in trace: TransactionTrace) {
        let call = LoggedCall(member: member, transaction: trace.id)
        state.withLock { state in
            guard let index = state.index(of: trace) else { return }
            state.entries[index].calls.append(call)
            state.calls.append(call)
        }
    }

    /// The logged transaction of `trace`, as it is now.
    func transaction(_ trace: TransactionTrace) -> LoggedTransaction? {
        state.withLock { state in
            state.index(of: trace).map { state.entries[$0].snapshot }
        }
    }

    var log: TransactionLog {
        state.withLock { state in
            TransactionLog(transactions: state.entries.map(\.snapshot), calls: state.calls)
        }
    }

    /// Forgets every transaction and call logged so far.
    func reset() {
        state.withLock { state in
            state.forgotten += state.entries.count
            state.entries = []
            state.calls = []
        }
    }
}
