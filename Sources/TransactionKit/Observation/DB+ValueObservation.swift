extension DB {
    /// The result of `fetch`, fetched again after each commit that may
    /// change it: a live value (see ``DBValueObservation``).
    ///
    /// ```swift
    /// let unreadCounts = db.observe { tx in try messages.unreadCount(for: user, tx) }
    /// for try await count in unreadCounts {
    ///     badge.value = count
    /// }
    /// ```
    ///
    /// **Which commits:** those that changed what the last fetch read (on
    /// `SQLiteDB`, the tables its statements read; on `MockDB`, the tables
    /// its mocks declare with `declaresRead(table:)`; the key-value
    /// collections it read), or those that changed `tracking`.
    ///
    /// **Transaction semantics:** each fetch runs in a read transaction of
    /// its own, when the iterating task asks for the next value.
    ///
    /// - Warning: Only databases built on TransactionKit's engine
    ///   (`SQLiteDB`, `MockDB`) can be observed; another `DB` stops the
    ///   process.
    /// - Parameters:
    ///   - tracking: The tables and collections whose commits trigger a
    ///     fetch, instead of those the fetch reads.
    ///   - file: The call site's file, for messages; leave the default.
    ///   - line: The call site's line, for messages; leave the default.
    ///   - fetch: Reads the value, given a read transaction.
    /// - Returns: An asynchronous sequence of values; iteration starts
    ///   with the first fetch.
    public func observe<Value: Sendable>(
        tracking: DBRegion? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ fetch: @escaping @Sendable (DBReadTransaction) throws -> Value
    ) -> DBValueObservation<Value> {
        makeObservation(tracking: tracking, file: file, line: line, isEqual: nil, fetch)
    }

    /// The result of `fetch`, fetched again after each commit that may
    /// change it, delivered only when it differs from the last value
    /// delivered (see ``observe(tracking:file:line:_:)-89o4y``).
    ///
    /// - Parameters:
    ///   - tracking: The tables and collections whose commits trigger a
    ///     fetch, instead of those the fetch reads.
    ///   - file: The call site's file, for messages; leave the default.
    ///   - line: The call site's line, for messages; leave the default.
    ///   - fetch: Reads the value, given a read transaction.
    /// - Returns: An asynchronous sequence of distinct consecutive values.
    public func observe<Value: Sendable & Equatable>(
        tracking: DBRegion? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ fetch: @escaping @Sendable (DBReadTransaction) throws -> Value
    ) -> DBValueObservation<Value> {
        makeObservation(tracking: tracking, file: file, line: line, isEqual: { $0 == $1 }, fetch)
    }

    private func makeObservation<Value: Sendable>(
        tracking: DBRegion?,
        file: StaticString,
        line: UInt,
        isEqual: (@Sendable (Value, Value) -> Bool)?,
        _ fetch: @escaping @Sendable (DBReadTransaction) throws -> Value
    ) -> DBValueObservation<Value> {
        let scope = requireScope(for: "observe")
        return DBValueObservation(
            scope: scope, tracking: tracking, callSite: CallSite(file: file, line: line),
            fetch: { [self] recordsReads in
                try await read(file: file, line: line) { tx in
                    guard recordsReads else { return (try fetch(tx), nil) }
                    return try ObservedReads.recording(tx) { try fetch(tx) }
                }
            },
            isEqual: isEqual)
    }
}
