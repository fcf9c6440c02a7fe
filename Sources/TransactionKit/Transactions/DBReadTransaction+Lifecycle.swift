import CTransactionKitMisuseHook
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The life of one transaction, shared by every backend:
//
//     open ──▶ finalizing ──▶ committing ──▶ committed ──▶ (completions run)
//       │           │              │
//       └───────────┴──────────────┴──▶ rolledBack
//
// A transaction is usable only while `open` or `finalizing`, and only on the
// thread that runs its block; a use in another state is an escaped
// transaction, a use from another thread (say, inside
// `DispatchQueue.concurrentPerform`) a data race: both are reported through
// `Misuse`. The lifecycle is stored in the transaction object itself (one
// allocation per transaction); this file adds the transitions.
//
// The engine creates the transaction on the calling thread, the block uses
// it on the thread that runs the block, and the engine finishes it on the
// calling thread once the backend returned: each step happens-before the
// next through the backend's own synchronization (a dispatch queue or an
// async continuation), never concurrently, so the engine may carry it
// through an `@unchecked Sendable` wrapper without a lock. The one reader
// without such an order is the misuse check on a foreign thread, which is
// why the state and the owner thread are atomics.
extension DBReadTransaction {
    package enum State: UInt8, Sendable {
        case pending
        case open
        case finalizing
        case committing
        case committed
        case rolledBack
        /// A read transaction's block returned.
        case ended
    }

    package enum AsyncCompletion {
        case queue(DispatchQueue, @Sendable () -> Void)
        /// Work for a task that `start` creates (on a task executor: an
        /// enum case cannot name `TaskExecutor`, which is newer than the
        /// package's floor, so `start` captures it).
        case task(start: @Sendable (_ operation: @escaping @Sendable () async -> Void) -> Void, @Sendable () async -> Void)
    }

    /// Finalizations and completions, allocated by the first hook: most
    /// transactions register none, and then cost one allocation less.
    final class Hooks {
        var finalizationKeys: [String] = []
        var finalizations: [String: (DBWriteTransaction) throws -> Void] = [:]
        var syncCompletions: [() -> Void] = []
        var asyncCompletions: [AsyncCompletion] = []
        /// Tables and key-value collections this write changed, for commit
        /// observers.
        var changes = DBChanges()
        /// The hooks and changes as each open savepoint found them,
        /// innermost last (see DBWriteTransaction+SavepointSteps.swift).
        var savepointMarks: [SavepointMark] = []
    }

    /// Where the transaction is in its life. Only the thread that runs the
    /// engine's steps changes it; any thread may read it.
    package internal(set) var state: State {
        get {
            let raw = transactionkit_atomic_load(lifecycleWords, AtomicOrdering.relaxed.rawValue)
            return State(rawValue: UInt8(truncatingIfNeeded: raw)).unsafelyUnwrapped
        }
        set {
            transactionkit_atomic_store(lifecycleWords, Int(newValue.rawValue), AtomicOrdering.relaxed.rawValue)
        }
    }

    /// The thread (or, odd, the task) that runs the block.
    private var atomicOwner: UInt {
        get {
            UInt(bitPattern: transactionkit_atomic_load(lifecycleWords + 1, AtomicOrdering.relaxed.rawValue))
        }
        set {
            transactionkit_atomic_store(lifecycleWords + 1, Int(bitPattern: newValue), AtomicOrdering.relaxed.rawValue)
        }
    }

    /// The state word, followed by the owner word: `atomicWords`, which is
    /// the root class's first stored property, so it starts the object's
    /// stored properties. Reached through the object's address, so that no
    /// Swift access (and no exclusivity check) touches the words after
    /// `init`.
    private var lifecycleWords: UnsafeMutablePointer<Int> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
    }

    /// Whether the calling thread is the one that runs the block.
    private var isOnOwnerThread: Bool {
        atomicOwner == Self.currentThread
    }

    /// The calling thread, as a number an atomic can hold.
    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    var existingHooks: Hooks {
        if let hooks { return hooks }
        let hooks = Hooks()
        self.hooks = hooks
        return hooks
    }

    // MARK: - Transitions (called by the engine)

    package func open(connection: AnyObject?, bridged: Bool = false) {
        precondition(state == .pending, "TransactionKit internal error: transaction opened twice")
        self.connection = connection
        atomicOwner = Self.currentThread
        state = .open
        if let tracer = scope.tracer { trace(by: tracer, bridged: bridged, enclosing: ActiveTransactions.innermostTrace) }
    }

    /// Opens a transaction whose block is async (``AsyncDB``): it belongs
    /// to the current task, whatever thread the block resumes on.
    package func openInTask(connection: AnyObject?) {
        precondition(state == .pending, "TransactionKit internal error: transaction opened twice")
        self.connection = connection
        atomicOwner = TaskActiveTransactions.currentTaskID
        state = .open
        if let tracer = scope.tracer { trace(by: tracer, enclosing: Self.currentTrace) }
    }

    /// Runs the finalizations in the order their keys were first added.
    package func runFinalizations(_ transaction: DBWriteTransaction) throws {
        guard let hooks, !hooks.finalizationKeys.isEmpty else {
            state = .committing
            return
        }
        state = .finalizing
        for key in hooks.finalizationKeys {
            if let finalization = hooks.finalizations[key] {
                try finalization(transaction)
            }
        }
        state = .committing
    }

    /// Whether finalizations are registered and have not run yet.
    package var hasPendingFinalizations: Bool {
        guard let hooks else { return false }
        return !hooks.finalizationKeys.isEmpty
    }

    /// Runs the finalizations registered so far and forgets them, then
    /// leaves the transaction open: for a transaction bridged from the
    /// application's own, whose commit is not TransactionKit's, at the end of
    /// a block that used it.
    package func runPendingFinalizations(_ transaction: DBWriteTransaction) throws {
        guard let hooks, !hooks.finalizationKeys.isEmpty else { return }
        let keys = hooks.finalizationKeys
        let finalizations = hooks.finalizations
        hooks.finalizationKeys = []
        hooks.finalizations = [:]
        state = .finalizing
        defer { state = .open }
        for key in keys {
            if let finalization = finalizations[key] {
                try finalization(transaction)
            }
        }
    }

    /// The block ended without committing: drops every hook.
    package func rollBack() {
        traceEnd(.rolledBack)
        state = .rolledBack
        connection = nil
        storageContext = nil
        hooks = nil
    }

    /// A read transaction ended (there is nothing to commit).
    package func closeRead() {
        traceEnd(.ended)
        state = .ended
        connection = nil
        storageContext = nil
    }

    /// The commit succeeded: runs sync completions in order, then hands the
    /// async completions to their queues or executors, in order.
    package func didCommit() {
        traceEnd(.committed)
        state = .committed
        connection = nil
        storageContext = nil
        guard let hooks else { return }
        self.hooks = nil
        for completion in hooks.syncCompletions {
            completion()
        }
        for completion in hooks.asyncCompletions {
            schedule(completion)
        }
    }

    private func schedule(_ completion: AsyncCompletion) {
        let scope = self.scope
        scope.asyncCompletionWillStart()
        switch completion {
        case let .queue(queue, block):
            queue.async {
                block()
                scope.asyncCompletionDidFinish()
            }
        case let .task(start, operation):
            start {
                await operation()
                scope.asyncCompletionDidFinish()
            }
        }
    }

    // MARK: - Checks and hooks (called through the public API)

    /// Reports a misuse unless the transaction is usable here: returns `nil`
    /// when it is, the error to throw when a test runner recorded the
    /// misuse, and stops the process otherwise (see ``Misuse``).
    @discardableResult
    package func checkActive(for use: String, at callSite: CallSite) -> DBMisuseError? {
        switch state {
        case .open, .finalizing:
            if isOnOwnerThread {
                return nil
            }
            // An async block's transaction belongs to a task (an odd owner,
            // see `openInTask`); the synchronous path above never gets here.
            let owner = atomicOwner
            if owner & 1 == 1 {
                if owner == TaskActiveTransactions.currentTaskID {
                    return nil
                }
                return Misuse.transactionUsedOnAnotherTask(kind: kind, openedAt: openedAt, usedFor: use, at: callSite)
            }
            return Misuse.transactionUsedOnAnotherThread(kind: kind, openedAt: openedAt, usedFor: use, at: callSite)
        case .pending, .committing, .committed:
            return Misuse.escapedTransaction(
                kind: kind, openedAt: openedAt, outcome: "been committed", usedFor: use, at: callSite)
        case .rolledBack:
            return Misuse.escapedTransaction(
                kind: kind, openedAt: openedAt, outcome: "been rolled back", usedFor: use, at: callSite)
        case .ended:
            return Misuse.escapedTransaction(
                kind: kind, openedAt: openedAt, outcome: "ended", usedFor: use, at: callSite)
        }
    }

    // The hooks cannot throw: after a misuse a test runner recorded, the
    // call is ignored (its block never runs).

    package func addFinalization(
        key: String,
        at callSite: CallSite,
        _ block: @escaping (DBWriteTransaction) throws -> Void
    ) {
        guard checkActive(for: "addFinalization", at: callSite) == nil else { return }
        if state == .finalizing {
            _ = Misuse.finalizationDuringFinalization(key: key, at: callSite)
            return
        }
        let hooks = existingHooks
        if hooks.finalizations.updateValue(block, forKey: key) == nil {
            hooks.finalizationKeys.append(key)
        }
        traceHook(.finalization(key: key))
    }

    /// The changes recorded so far, `nil` when there are none.
    package var recordedChanges: DBChanges? {
        guard let changes = hooks?.changes, !changes.isEmpty else { return nil }
        return changes
    }

    /// Records that this write changed a key-value collection (called by
    /// ``KeyValueStore`` after the transaction was checked).
    package func recordChange(keyValueCollection collection: String) {
        existingHooks.changes.keyValueCollections.insert(collection)
    }

    /// Records that this write changed a table (called by
    /// ``DBWriteTransaction/declareChange(table:file:line:)`` after the
    /// transaction was checked).
    package func recordChange(table: String) {
        existingHooks.changes.tables.insert(table)
    }

    package func addSyncCompletion(at callSite: CallSite, _ block: @escaping () -> Void) {
        guard checkActive(for: "addSyncCompletion", at: callSite) == nil else { return }
        existingHooks.syncCompletions.append(block)
        traceHook(.syncCompletion)
    }

    package func addAsyncCompletion(at callSite: CallSite, _ completion: AsyncCompletion) {
        guard checkActive(for: "addAsyncCompletion", at: callSite) == nil else { return }
        existingHooks.asyncCompletions.append(completion)
        traceHook(.asyncCompletion)
    }
}
