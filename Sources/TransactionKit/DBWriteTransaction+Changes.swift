extension DBWriteTransaction {
    /// Declares that this transaction changed `table`, so that commit
    /// observers of that table hear about it when the transaction commits.
    ///
    /// It is the one line a finder mock adds, so that a manager's reaction to
    /// commits can be unit tested on `MockDB`, which has no tables to watch:
    ///
    /// ```swift
    /// final class MessageFinderMock: MessageFinding {
    ///     func insert(_ draft: Draft, _ tx: DBWriteTransaction) throws -> Message {
    ///         tx.declareChange(table: "message")
    ///         return Message(id: 1, text: draft.text)
    ///     }
    /// }
    /// ```
    ///
    /// A mock built from `MockMethod` (TransactionKitTesting), as the
    /// generated ones are, says it once in the test instead, and each call
    /// inside a write declares it: `messages.insert.declaresChange(table: "message")`.
    ///
    /// **Transaction semantics:** the declaration is part of the transaction:
    /// observers of `table` hear about it after the commit, once per commit
    /// however many times it was declared, and never when the transaction
    /// rolls back. On `SQLiteDB`, tables whose rows SQLite saw change are
    /// reported without any declaration; declare the changes it cannot see
    /// (`WITHOUT ROWID` tables, changes made by another connection you
    /// synchronize with).
    ///
    /// **Thread:** the thread that runs the write block.
    ///
    /// - Warning: Stops the process when called after the write block
    ///   returned (escaped transaction), or from another thread.
    /// - Parameters:
    ///   - table: The table's name; observers match it case-insensitively
    ///     (ASCII), as SQLite does.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    public func declareChange(table: String, file: StaticString = #fileID, line: UInt = #line) {
        guard checkActive(for: "declareChange", at: CallSite(file: file, line: line)) == nil else { return }
        recordChange(table: table)
    }
}
