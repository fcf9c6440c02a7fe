import TransactionKit

// How a mock forwards a call: each method takes the call site (defaults
// the mock leaves alone) and hands over to `answer(_:closures:_:at:)`.

extension MockMethodCore {
    /// Handles one call from the mock: checks `tx`, records `arguments` and
    /// the transaction the call ran in, and answers from the stub, or
    /// records a test failure and throws ``UnimplementedError`` when nobody
    /// stubbed the method.
    ///
    /// ```swift
    /// func enumerate(conversationID: Int64, block: (Row) -> Void, _ tx: DBReadTransaction) throws {
    ///     try withoutActuallyEscaping(block) { block in
    ///         try enumerate.call(conversationID, closures: block, tx, in: self)
    ///     }
    /// }
    /// ```
    ///
    /// When the stub answered, the reads of ``declaresRead(table:)`` and the
    /// changes of ``declaresChange(table:)`` are declared on `tx` (a test
    /// failure is recorded when changes are declared and `tx` is not a
    /// write transaction).
    ///
    /// - Parameters:
    ///   - arguments: The recorded arguments (a tuple for several).
    ///   - closures: The closure and `inout` arguments (a tuple for
    ///     several), handed to the stub and never recorded.
    ///   - tx: The transaction the call received, if any.
    ///   - mock: The mock, which names the method in failures.
    ///   - function: The mock's method; leave the default.
    ///   - fileID: The call site, for failures; leave the default.
    ///   - filePath: The call site, for failures; leave the default.
    ///   - line: The call site, for failures; leave the default.
    ///   - column: The call site, for failures; leave the default.
    /// - Returns: The stub's result.
    /// - Throws: The stub's error, or ``UnimplementedError``.
    public func call<Mock>(
        _ arguments: Arguments,
        closures: Closures,
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Result {
        let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
        return try answer(arguments, closures: closures, tx, at: site)
    }

    /// Handles one call from a mock member that cannot throw (a property,
    /// a non-throwing or `rethrows` method), as
    /// ``call(_:closures:_:in:function:fileID:filePath:line:column:)`` does.
    ///
    /// When nobody stubbed it, or its stub throws, the failure is recorded
    /// at the call site and the run goes on: the member returns `()` or
    /// `nil` when its result is `Void` or an optional. Any other result has
    /// no value to make up: then the process stops with the same message
    /// (see ``MockFailureDefault``). Stub such members before the code
    /// under test runs.
    ///
    /// - Parameters:
    ///   - arguments: The recorded arguments (a tuple for several).
    ///   - closures: The closure and `inout` arguments (a tuple for
    ///     several), handed to the stub and never recorded.
    ///   - tx: The transaction the call received, if any.
    ///   - mock: The mock, which names the method in failures.
    ///   - function: The mock's member; leave the default.
    ///   - fileID: The call site, for failures; leave the default.
    ///   - filePath: The call site, for failures; leave the default.
    ///   - line: The call site, for failures; leave the default.
    ///   - column: The call site, for failures; leave the default.
    /// - Returns: The stub's result.
    public func callWithoutThrowing<Mock>(
        _ arguments: Arguments,
        closures: Closures,
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Result {
        let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
        return answerWithoutThrowing(arguments, closures: closures, tx, at: site)
    }
}

extension MockMethodCore where Closures == Void {
    /// Handles one call from the mock, for a member without closure or
    /// `inout` arguments. See
    /// ``call(_:closures:_:in:function:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// func insert(conversationID: Int64, body: String, _ tx: DBWriteTransaction) throws -> Message {
    ///     try insert.call((conversationID, body), tx, in: self)
    /// }
    /// ```
    public func call<Mock>(
        _ arguments: Arguments,
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Result {
        let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
        return try answer(arguments, closures: (), tx, at: site)
    }

    /// Handles one call from a mock member that cannot throw, for a member
    /// without closure or `inout` arguments. See
    /// ``callWithoutThrowing(_:closures:_:in:function:fileID:filePath:line:column:)``.
    public func callWithoutThrowing<Mock>(
        _ arguments: Arguments,
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Result {
        let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
        return answerWithoutThrowing(arguments, closures: (), tx, at: site)
    }
}

extension MockMethodCore where Arguments == Void, Closures == Void {
    /// Handles a call without arguments. See
    /// ``call(_:closures:_:in:function:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// func count(_ tx: DBReadTransaction) throws -> Int {
    ///     try count.call(tx, in: self)
    /// }
    /// ```
    public func call<Mock>(
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Result {
        let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
        return try answer((), closures: (), tx, at: site)
    }

    /// Handles a call without arguments to a member that cannot throw. See
    /// ``callWithoutThrowing(_:closures:_:in:function:fileID:filePath:line:column:)``.
    public func callWithoutThrowing<Mock>(
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Result {
        let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
        return answerWithoutThrowing((), closures: (), tx, at: site)
    }
}
