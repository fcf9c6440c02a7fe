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
        /// Where each of ``calls`` is in the log's calls (counted from the
        /// first call ever logged, as ``MockCallTransaction/position``).
        var callPositions: [Int] = []
        /// The hooks and the number of calls as each open savepoint found
        /// them, innermost last.
        var savepointMarks: [(hooks: LoggedTransaction.Hooks, calls: Int)] = []
        var savepoints = LoggedTransaction.Savepoints()

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
                hooks: hooks, savepoints: savepoints, calls: calls, fileID: "\(file)", line: Int(line))
        }
    }

    private struct State {
        var entries: [Entry] = []
        /// The number of entries ``reset()`` forgot: a trace's position,
        /// less this, is its entry's index.
        var forgotten = 0
        var calls: [LoggedCall] = []
        /// The number of calls ``reset()`` forgot: a call's position, less
        /// this, is its index in ``calls``.
        var forgottenCalls = 0

        /// The index of `trace`'s entry, if it is still in the log.
        func index(of trace: TransactionTrace) -> Int? {
            let index = trace.position - forgotten
            guard index >= 0, index < entries.count, entries[index].id == trace.id else { return nil }
            return index
        }

        /// Marks the calls of entry `index`, from its `first` call on, as
        /// made in a savepoint that rolled back.
        mutating func markRolledBack(callsOf index: Int, from first: Int) {
            for call in first..<entries[index].calls.count {
                entries[index].calls[call].isInRolledBackSavepoint = true
                let position = entries[index].callPositions[call] - forgottenCalls
                if position >= 0, position < calls.count {
                    calls[position].isInRolledBackSavepoint = true
                }
            }
        }

        /// The call at `position`, if it is still in the log.
        func call(at position: Int) -> LoggedCall? {
            let index = position - forgottenCalls
            guard index >= 0, index < calls.count else { return nil }
            return calls[index]
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

    func transactionDidBeginSavepoint(_ trace: TransactionTrace) {
        update(trace) { entry in
            entry.savepointMarks.append((entry.hooks, entry.calls.count))
        }
    }

    /// A rolled-back savepoint takes its hooks out of the log, as they are
    /// out of the transaction; its calls stay, marked.
    func transaction(_ trace: TransactionTrace, didEndSavepoint completion: DBSavepointCompletion) {
        state.withLock { state in
            guard let index = state.index(of: trace) else { return }
            // Every open savepoint has its mark (`adopt` marks those that
            // began before the log did).
            guard let mark = state.entries[index].savepointMarks.popLast() else { return }
            switch completion {
            case .commit:
                state.entries[index].savepoints.released += 1
            case .rollback:
                state.entries[index].savepoints.rolledBack += 1
                state.entries[index].hooks = mark.hooks
                state.markRolledBack(callsOf: index, from: mark.calls)
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
        // Savepoints open now: their rollback marks the calls logged from
        // now on.
        if let write = transaction as? DBWriteTransaction, write.savepointDepth > 0 {
            recorder.update(trace) { entry in
                entry.savepointMarks = Array(repeating: (entry.hooks, 0), count: write.savepointDepth)
            }
        }
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

    /// Records a call to `member` in the transaction of `trace`; returns
    /// its position among the log's calls (`nil` when the transaction is
    /// no longer in the log).
    func recordCall(to member: MockMember, in trace: TransactionTrace) -> Int? {
        let call = LoggedCall(member: member, transaction: trace.id)
        return state.withLock { state in
            guard let index = state.index(of: trace) else { return nil }
            let position = state.forgottenCalls + state.calls.count
            state.entries[index].calls.append(call)
            state.entries[index].callPositions.append(position)
            state.calls.append(call)
            return position
        }
    }

    /// The logged call at `position` (see ``recordCall(to:in:)``), as it
    /// is now.
    func call(at position: Int) -> LoggedCall? {
        state.withLock { $0.call(at: position) }
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
            state.forgottenCalls += state.calls.count
            state.calls = []
        }
    }
}
