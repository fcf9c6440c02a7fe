import TransactionKit

/// One method of a mock: its stub, and the calls it received. A mock holds
/// one `MockMethod` per method it implements and forwards each call to it,
/// which checks the transaction, records the arguments, and answers from the
/// stub, or fails the test through ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)``
/// when nobody stubbed it.
///
/// ```swift
/// final class MessageFinderMock: MessageFinding, Sendable {
///     let insert = MockMethod<(conversationID: Int64, body: String), Message>()
///     let latest = MockMethod<Int64, Message?>()
///
///     func insert(conversationID: Int64, body: String, _ tx: DBWriteTransaction) throws -> Message {
///         try insert.call((conversationID, body), tx, in: self)
///     }
///
///     func latest(conversationID: Int64, _ tx: DBReadTransaction) throws -> Message? {
///         try latest.call(conversationID, tx, in: self)
///     }
/// }
///
/// @Test func sendingInsertsTheMessage() throws {
///     let messages = MessageFinderMock()
///     messages.insert.stub { conversationID, body in Message(id: 1, conversationID: conversationID, body: body) }
///     try ComposeManager(db: MockDB(), messages: messages).send("hi", to: 7)
///     #expect(messages.insert.calls.map(\.body) == ["hi"])
/// }
/// ```
///
/// **Transactions:** ``call(_:_:in:function:fileID:filePath:line:column:)``
/// runs `tx.preconditionActive()` first, so a mock catches an escaped
/// transaction exactly where a real finder would.
///
/// **Threads:** `MockMethod` is `Sendable`: stubs, calls and counts are
/// kept behind a lock, so a mock made of them can be used from concurrent
/// tasks. The stub runs outside the lock.
public final class MockMethod<Arguments: Sendable, Result: Sendable>: Sendable {
    private struct State: Sendable {
        var stub: (@Sendable (Arguments) throws -> Result)?
        var calls: [Arguments] = []
    }

    private let state = Locked(State())

    /// Creates a method with no stub and no calls.
    public init() {}

    /// The arguments of every call so far, in order.
    public var calls: [Arguments] {
        state.value.calls
    }

    /// The number of calls so far.
    public var callCount: Int {
        state.withValue { $0.calls.count }
    }

    /// Whether a stub is set.
    public var isStubbed: Bool {
        state.withValue { $0.stub != nil }
    }

    /// Answers every call with `body`'s result (or error).
    ///
    /// - Parameter body: Receives the call's arguments.
    public func stub(_ body: @escaping @Sendable (Arguments) throws -> Result) {
        state.withValue { $0.stub = body }
    }

    /// Answers every call with `value`.
    ///
    /// - Parameter value: The result of every call.
    public func returns(_ value: Result) {
        stub { _ in value }
    }

    /// Fails every call with `error`.
    ///
    /// - Parameter error: The error every call throws.
    public func fails(with error: any Error & Sendable) {
        stub { _ in throw error }
    }

    /// Forgets the stub and the calls.
    public func reset() {
        state.setValue(State())
    }

    /// Handles one call from the mock: checks `tx`, records `arguments`, and
    /// answers from the stub, or records a test failure and throws
    /// ``UnimplementedError`` when nobody stubbed the method.
    ///
    /// - Parameters:
    ///   - arguments: The call's arguments (a tuple for several).
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
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Result {
        if let tx {
            tx.preconditionActive(file: fileID, line: line)
        }
        let stub = state.withValue { state in
            state.calls.append(arguments)
            return state.stub
        }
        guard let stub else {
            throw unimplemented(
                function, in: Mock.self, fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column),
                staticFilePath: filePath)
        }
        return try stub(arguments)
    }
}

extension MockMethod {
    /// Handles one call from a mock member that cannot throw (a property,
    /// a non-throwing or `rethrows` method): checks `tx`, records
    /// `arguments`, and answers from the stub.
    ///
    /// Such a member has nothing to return when nobody stubbed it, or when
    /// its stub throws: the failure is recorded as for
    /// ``call(_:_:in:function:fileID:filePath:line:column:)``, then the
    /// process stops with the same message. Stub such members before the
    /// code under test runs.
    ///
    /// - Parameters:
    ///   - arguments: The call's arguments (a tuple for several).
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
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Result {
        do {
            return try call(
                arguments, tx, in: mock, function: function, fileID: fileID, filePath: filePath, line: line,
                column: column)
        } catch {
            fatalError("\(Mock.self).\(function) cannot throw, and its MockMethod failed: \(error)", file: fileID, line: line)
        }
    }
}

extension MockMethod where Result == Void {
    /// Answers every call by returning normally.
    public func returns() {
        returns(())
    }
}

extension MockMethod where Arguments == Void {
    /// Handles a call without arguments. See
    /// ``call(_:_:in:function:fileID:filePath:line:column:)``.
    public func call<Mock>(
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Result {
        try call((), tx, in: mock, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension MockMethod where Arguments == Void {
    /// Handles a call without arguments to a member that cannot throw. See
    /// ``callWithoutThrowing(_:_:in:function:fileID:filePath:line:column:)``.
    public func callWithoutThrowing<Mock>(
        _ tx: DBReadTransaction? = nil,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Result {
        callWithoutThrowing(
            (), tx, in: mock, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
