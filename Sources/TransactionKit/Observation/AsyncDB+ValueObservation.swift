extension AsyncDB {
    /// The result of `fetch`, fetched again after each commit made through
    /// this database that may change it: a live value (see
    /// ``DBValueObservation``).
    ///
    /// ```swift
    /// for try await count in db.observe({ tx in try await messages.unreadCount(for: user, tx) }) {
    ///     await badge.update(count)
    /// }
    /// ```
    ///
    /// **Which commits:** those that changed the tables its finders declare
    /// with `declareRead(table:)` (mocks: `declaresRead(table:)`) or the
    /// key-value collections it read, or those that changed `tracking`. A
    /// `PostgresDB` hears its own commits, not other processes'.
    ///
    /// - Warning: Only databases built on TransactionKit's engine
    ///   (`MockDB`, `SQLiteDB`, `PostgresDB`) can be observed; another `AsyncDB` stops
    ///   the process.
    /// - Parameters:
    ///   - tracking: The tables and collections whose commits trigger a
    ///     fetch, instead of those the fetch reads.
    ///   - file: The call site's file, for messages; leave the default.
    ///   - line: The call site's line, for messages; leave the default.
    ///   - fetch: Reads the value, given a read transaction.
    /// - Returns: An asynchronous sequence of values.
    public func observe<Value: Sendable>(
        tracking: DBRegion? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ fetch: @escaping @Sendable (DBReadTransaction) async throws -> Value
    ) -> DBValueObservation<Value> {
        makeObservation(tracking: tracking, file: file, line: line, isEqual: nil, fetch)
    }

    /// The result of `fetch`, fetched again after each commit that may
    /// change it, delivered only when it differs from the last value
    /// delivered.
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
        _ fetch: @escaping @Sendable (DBReadTransaction) async throws -> Value
    ) -> DBValueObservation<Value> {
        makeObservation(tracking: tracking, file: file, line: line, isEqual: { $0 == $1 }, fetch)
    }

    private func makeObservation<Value: Sendable>(
        tracking: DBRegion?,
        file: StaticString,
        line: UInt,
        isEqual: (@Sendable (Value, Value) -> Bool)?,
        _ fetch: @escaping @Sendable (DBReadTransaction) async throws -> Value
    ) -> DBValueObservation<Value> {
        guard let provider = self as? any DatabaseScopeProviding else {
            preconditionFailure(
                "TransactionKit: observe needs an AsyncDB built on TransactionKit's engine, not \(type(of: self))")
        }
        return DBValueObservation(
            scope: provider.databaseScope, tracking: tracking, callSite: CallSite(file: file, line: line),
            fetch: { [self] recordsReads in
                try await read(file: file, line: line) { tx in
                    guard recordsReads else { return (try await fetch(tx), nil) }
                    return try await ObservedReads.recording(tx) { try await fetch(tx) }
                }
            },
            isEqual: isEqual)
    }
}
