/// Remembers, per task, which databases have an ``AsyncDB`` transaction
/// whose block is running in this task: how a nested async transaction is
/// caught.
package enum TaskActiveTransactions {
    // A thread mark (`ActiveTransactions`) would be lost when the block hops
    // threads and confused by other tasks run on its thread while it is
    // suspended, hence a task-local list. Each entry names the task that opened
    // it: a child task (which inherits task-locals) or a `Task { }` started in
    // the block is another task with transactions of its own, not a nesting.

    /// One running async transaction block.
    package final class Entry: Sendable {
        let scope: DatabaseScope
        let kind: TransactionKind
        let openedAt: CallSite
        /// The task running the block (see ``currentTaskID``).
        let task: UInt
        let outer: Entry?
        /// The transaction's trace, if it is traced (see ``TransactionTracer``).
        let trace: TransactionTrace?

        init(
            scope: DatabaseScope, kind: TransactionKind, openedAt: CallSite, task: UInt, outer: Entry?,
            trace: TransactionTrace? = nil
        ) {
            self.trace = trace
            self.scope = scope
            self.kind = kind
            self.openedAt = openedAt
            self.task = task
            self.outer = outer
        }
    }

    /// The innermost running async transaction block of this task and its
    /// ancestors.
    @TaskLocal static var innermost: Entry?

    /// The current task as a number, with its lowest bit set so that it
    /// never equals a thread number (`pthread_self()` is an aligned
    /// pointer); 0 outside any task.
    package static var currentTaskID: UInt {
        withUnsafeCurrentTask { task in
            guard let task else { return 0 }
            return unsafeBitCast(task, to: UInt.self) | 1
        }
    }

    /// The running async transaction of `scope` in the current task, if any.
    package static func running(in scope: DatabaseScope) -> (kind: TransactionKind, openedAt: CallSite)? {
        guard var entry = innermost else { return nil }
        let task = currentTaskID
        while true {
            if entry.scope === scope, entry.task == task {
                return (entry.kind, entry.openedAt)
            }
            guard let outer = entry.outer else { return nil }
            entry = outer
        }
    }

    /// Reports a misuse if the current task runs an async transaction block
    /// of `scope`: returns the error to throw when a test runner recorded
    /// it (see ``Misuse``), `nil` when the transaction does not nest.
    package static func checkNotNested(
        in scope: DatabaseScope,
        kind: TransactionKind,
        at callSite: CallSite
    ) -> DBMisuseError? {
        guard let outer = running(in: scope) else { return nil }
        return Misuse.nestedTransaction(kind: kind, outerKind: outer.kind, outerOpenedAt: outer.openedAt, at: callSite)
    }

    /// Runs `body` with the current task marked as running the block of
    /// `transaction`.
    package static func whileActive<R>(
        _ transaction: DBReadTransaction,
        _ body: () async throws -> R
    ) async rethrows -> R {
        let entry = Entry(
            scope: transaction.scope,
            kind: transaction.kind,
            openedAt: transaction.openedAt,
            task: currentTaskID,
            outer: innermost,
            trace: transaction.trace)
        return try await $innermost.withValue(entry) {
            try await body()
        }
    }
}

extension TaskActiveTransactions {
    /// The trace of the innermost traced async transaction block that runs
    /// in the current task, if any.
    package static var innermostTrace: TransactionTrace? {
        guard var entry = innermost else { return nil }
        let task = currentTaskID
        while true {
            if entry.task == task, let trace = entry.trace {
                return trace
            }
            guard let outer = entry.outer else { return nil }
            entry = outer
        }
    }
}
