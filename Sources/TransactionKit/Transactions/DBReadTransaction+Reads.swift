extension DBReadTransaction {
    /// Declares that this transaction read `table`, so that a value
    /// observation whose fetch runs it re-runs after the table changes: the
    /// line a finder mock adds on `MockDB`, which has no tables to read.
    ///
    /// ```swift
    /// func unreadCount(for user: UserID, _ tx: DBReadTransaction) throws -> Int {
    ///     tx.declareRead(table: "message")
    ///     return stubbedUnreadCount
    /// }
    /// ```
    ///
    /// A `MockMethod` mock says it once instead:
    /// `messages.unreadCount.declaresRead(table: "message")`. Outside an
    /// observed fetch it does nothing. `SQLiteDB` sees the tables its
    /// statements read without a declaration.
    ///
    /// - Warning: Stops the process when called after the block returned
    ///   (escaped transaction), or from another thread.
    /// - Parameters:
    ///   - table: The table's name, matched case-insensitively (ASCII).
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    public func declareRead(table: String, file: StaticString = #fileID, line: UInt = #line) {
        guard checkActive(for: "declareRead", at: CallSite(file: file, line: line)) == nil else { return }
        readRecorder?.tables.insert(table)
    }

    /// Records that a ``KeyValueStore`` collection was read, for an
    /// observed fetch.
    func recordKeyValueRead(_ collection: String) {
        readRecorder?.keyValueCollections.insert(collection)
    }
}
