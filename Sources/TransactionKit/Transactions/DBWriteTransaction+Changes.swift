extension DBWriteTransaction {
    /// Declares that this transaction changed `table`, so that the table's
    /// commit observers hear about it: the line a finder mock adds on
    /// `MockDB`, which has no tables to watch.
    ///
    /// ```swift
    /// func insert(_ draft: Draft, _ tx: DBWriteTransaction) throws -> Message {
    ///     tx.declareChange(table: "message")
    ///     return Message(id: 1, text: draft.text)
    /// }
    /// ```
    ///
    /// A `MockMethod` mock says it once instead:
    /// `messages.insert.declaresChange(table: "message")`.
    ///
    /// **Transaction semantics:** observers hear about it once per commit,
    /// never after a rollback. `SQLiteDB` reports the tables whose rows it
    /// saw change; declare what it cannot see (`WITHOUT ROWID` tables,
    /// another connection's changes).
    ///
    /// - Warning: Call it on the thread that runs the write block, while the
    ///   block runs; otherwise it stops the process (see ``DBMisuseError``).
    /// - Parameters:
    ///   - table: The table's name, matched case-insensitively (ASCII).
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    public func declareChange(table: String, file: StaticString = #fileID, line: UInt = #line) {
        guard checkActive(for: "declareChange", at: CallSite(file: file, line: line)) == nil else { return }
        recordChange(table: table)
    }
}
