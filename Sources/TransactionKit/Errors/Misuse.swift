import CTransactionKitMisuseHook

/// Programmer errors: every check that reports a misuse lives here, so that
/// `MockDB` and `SQLiteDB` report a mistake with the very same words.
///
/// Each message starts with `TransactionKit misuse:`, says what went wrong,
/// and ends with how to fix it; the call site is printed once, in front of
/// it (by `fatalError`, or by the test runner). Messages never name the
/// backend: the same mistake reads the same in a unit test on `MockDB` and
/// in production on `SQLiteDB`.
///
/// **Reporting.** In a test binary that links `TransactionKitTesting`, a
/// misuse that happens while a test runs is recorded as a failure of that
/// test, and the caller gets a ``DBMisuseError`` to throw (or ignores the
/// call where it cannot throw). Everywhere else (production, an exit test's
/// child process, a thread no test runs on) the process stops. The lookup
/// happens only once a misuse was detected: correct code pays nothing.
package enum Misuse {
    /// Reports a misuse: records it as a test failure and returns the error
    /// to throw when a test runner took it, stops the process otherwise.
    package static func report(_ problem: String, fix: String, at callSite: CallSite) -> DBMisuseError {
        let message = "TransactionKit misuse: \(problem) Fix: \(fix)"
        let fileID = "\(callSite.file)"
        let line = Int(callSite.line)
        if transactionkit_record_misuse_if_testing(message, fileID, line) {
            return DBMisuseError(message: message, fileID: fileID, line: line)
        }
        fatalError(message, file: callSite.file, line: callSite.line)
    }

    /// A transaction was used after its block returned.
    package static func escapedTransaction(
        kind: TransactionKind,
        openedAt: CallSite,
        outcome: String,
        usedFor use: String,
        at callSite: CallSite
    ) -> DBMisuseError {
        report(
            "\(kind.typeName) used (\(use)) after its `\(kind.methodName)` block returned; "
                + "it was opened at \(openedAt) and has \(outcome).",
            fix: "a transaction is valid only while its block runs. Pass it down as an argument; "
                + "never store it in a property or capture it in an escaping closure or a Task. "
                + "To run code after the commit, register it with addSyncCompletion or addAsyncCompletion.",
            at: callSite)
    }

    /// A transaction was used, while its block runs, from another thread.
    package static func transactionUsedOnAnotherThread(
        kind: TransactionKind,
        openedAt: CallSite,
        usedFor use: String,
        at callSite: CallSite
    ) -> DBMisuseError {
        report(
            "\(kind.typeName) used (\(use)) on a thread other than the one running its `\(kind.methodName)` block "
                + "(opened at \(openedAt)).",
            fix: "use a transaction only on the thread that runs its block: do not hand it to "
                + "DispatchQueue.concurrentPerform, another queue or another thread; "
                + "do the work sequentially inside the block, or in separate transactions.",
            at: callSite)
    }

    /// An async block's transaction was used, while its block runs, from
    /// another task.
    package static func transactionUsedOnAnotherTask(
        kind: TransactionKind,
        openedAt: CallSite,
        usedFor use: String,
        at callSite: CallSite
    ) -> DBMisuseError {
        report(
            "\(kind.typeName) used (\(use)) from a task other than the one running its `\(kind.methodName)` block "
                + "(opened at \(openedAt)).",
            fix: "use a transaction only in the task that runs its block: do not hand it to a child task, "
                + "a task group or a Task { }; await the work sequentially inside the block, "
                + "or run it in separate transactions.",
            at: callSite)
    }

    /// A transaction was opened inside another transaction of the same database.
    package static func nestedTransaction(
        kind: TransactionKind,
        outerKind: TransactionKind,
        outerOpenedAt: CallSite,
        at callSite: CallSite
    ) -> DBMisuseError {
        report(
            "`\(kind.methodName)` called inside a `\(outerKind.methodName)` transaction of the same DB "
                + "(opened at \(outerOpenedAt)). Transactions do not nest.",
            fix: "pass the outer transaction down instead of opening a new one "
                + "(a DBWriteTransaction is accepted wherever a DBReadTransaction is expected), "
                + "or move this work into a completion (addSyncCompletion) that runs after the commit.",
            at: callSite)
    }

    /// A transaction was opened while the database's connection was inside
    /// a transaction the application opened itself, on the same thread.
    package static func nestedInApplicationTransaction(kind: TransactionKind, at callSite: CallSite) -> DBMisuseError {
        report(
            "`\(kind.methodName)` called inside a transaction that the application opened itself on the same "
                + "database (its own write on the adopted connection). Transactions do not nest.",
            fix: "bridge the application's transaction instead of opening a new one: pass "
                + "db.writeTransaction(bridging: database) (or readTransaction) to the code that needs it.",
            at: callSite)
    }

    /// A transaction of a database without connections (a test double)
    /// reached a bridge to real data-access code.
    package static func connectionlessTransactionBridged(
        bridge: String, databaseName: String, at callSite: CallSite
    ) -> DBMisuseError {
        report(
            "\(bridge) received a transaction that came from a \(databaseName). "
                + "Real data-access code (a legacy finder or its Wrapper) ran inside a unit test.",
            fix: "mock the finder that called the bridge: give the code under test its Mock "
                + "(for example Consumer.Mocks.Dependency) instead of its Wrapper or the real finder.",
            at: callSite)
    }

    /// A transaction reached the bridge of another kind of database.
    package static func transactionBridgedToAnotherDatabase(
        bridge: String, databaseName: String, at callSite: CallSite
    ) -> DBMisuseError {
        report(
            "\(bridge) received a transaction that came from a \(databaseName), whose connections it cannot unwrap.",
            fix: "pass a transaction of the database this bridge belongs to, or unwrap this one with "
                + "\(databaseName)'s own bridge.",
            at: callSite)
    }

    /// A finalization was registered while finalizations were running.
    package static func finalizationDuringFinalization(key: String, at callSite: CallSite) -> DBMisuseError {
        report(
            "addFinalization(key: \"\(key)\") called while the transaction's finalizations were running.",
            fix: "register every finalization from the write block itself; "
                + "a finalization may write, and may add completions, but may not add finalizations.",
            at: callSite)
    }
}
