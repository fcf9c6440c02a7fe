import TransactionKit

/// One method of a mock: its stub, and the calls it received. The mock
/// forwards each call to it, which checks the transaction, records the
/// arguments, and answers from the stub, or fails the test through
/// ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)`` when
/// nobody stubbed it.
///
/// ```swift
/// final class MessageFinderMock: MessageFinding, Sendable {
///     let insert = MockMethod<(conversationID: Int64, body: String), Message>()
///
///     func insert(conversationID: Int64, body: String, _ tx: DBWriteTransaction) throws -> Message {
///         try insert.call((conversationID, body), tx, in: self)
///     }
/// }
///
/// @Test func sendingInsertsTheMessage() throws {
///     let messages = MessageFinderMock()
///     messages.insert.stub { conversationID, body in Message(id: 1, conversationID: conversationID, body: body) }
///     messages.insert.declaresChange(table: "message")   // for commit observers
///     try ComposeManager(db: MockDB(), messages: messages).send("hi", to: 7)
///     #expect(messages.insert.calls.map(\.body) == ["hi"])
/// }
/// ```
///
/// **Transactions:** a call checks its transaction first, so a mock catches
/// an escaped transaction where a real finder would. `MockDB` has no tables:
/// ``declaresChange(table:)`` tells its commit observers what a method
/// writes.
///
/// **Threads:** `Sendable`; the state is behind a lock, and the stub runs
/// outside it, on the thread of the call.
public final class MockMethod<Arguments: Sendable, Result: Sendable>: Sendable {
    /// A stub, given the call's arguments and transaction.
    typealias Stub = @Sendable (Arguments, DBReadTransaction?) throws -> Result

    struct State: Sendable {
        var stub: Stub?
        var calls: [Arguments] = []
        /// Where each call ran, in call order.
        var callTransactions: [MockCallTransaction] = []
        /// The mock's type and member, from the first call.
        var memberName = ""
        /// The tables every successful call with a write transaction
        /// declares changed, in the order they were declared.
        var declaredTables: [String] = []
        /// The tables every successful call declares read, for value
        /// observation.
        var readTables: [String] = []
    }

    let state = Locked(State())

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
    /// ```swift
    /// messages.insert.stub { conversationID, body in Message(id: 1, conversationID: conversationID, body: body) }
    /// ```
    ///
    /// Several arguments arrive as one tuple, which the closure can take
    /// apart into one parameter per argument, as above. A stub replaces the
    /// previous one (whichever method set it).
    ///
    /// - Parameter body: Receives the call's arguments.
    public func stub(_ body: @escaping @Sendable (Arguments) throws -> Result) {
        state.withValue { $0.stub = { arguments, _ in try body(arguments) } }
    }

    /// Answers every call with `body`'s result (or error), given the call's
    /// arguments and its transaction.
    ///
    /// ```swift
    /// messages.insert.stubWithTransaction { arguments, tx in
    ///     try KeyValueStore(collection: "drafts").removeValue(forKey: "\(arguments.conversationID)", transaction: tx as! DBWriteTransaction)
    ///     return Message(id: 1, conversationID: arguments.conversationID, body: arguments.body)
    /// }
    /// ```
    ///
    /// The arguments arrive as one value (a tuple for several), the
    /// transaction second. To declare a table change,
    /// ``declaresChange(table:)`` needs no stub of this kind.
    ///
    /// **Transactions:** `tx` is the transaction the mock passed to
    /// ``call(_:_:in:function:fileID:filePath:line:column:)`` (cast it with
    /// `as? DBWriteTransaction` in a write), `nil` for a member that
    /// receives none. It is valid while the stub runs; do not keep it.
    ///
    /// **Thread:** the thread of the call, outside the method's lock.
    ///
    /// - Parameter body: Receives the call's arguments and transaction.
    public func stubWithTransaction(_ body: @escaping @Sendable (Arguments, DBReadTransaction?) throws -> Result) {
        // Not an overload of `stub(_:)`: with several arguments, a closure of
        // two parameters could mean the arguments taken apart, or the
        // arguments and the transaction.
        state.withValue { $0.stub = body }
    }

    /// Declares that every successful call with a write transaction changed
    /// `table`, so that the table's commit observers hear about it on
    /// `MockDB`, which has no tables to watch.
    ///
    /// ```swift
    /// let messages = ChatManager.Mocks.LegacyMessageFinder()
    /// messages.insert.stub { conversationID, senderID, body, sentAt in … }
    /// messages.insert.declaresChange(table: "message")
    /// ```
    ///
    /// It applies to the calls made afterwards, whichever stub answers them,
    /// until ``reset()``; declaring a table again changes nothing.
    ///
    /// **Transaction semantics:** once the stub answered without throwing,
    /// the call runs
    /// ``/TransactionKit/DBWriteTransaction/declareChange(table:file:line:)``
    /// on its transaction: observers hear about the table once per commit,
    /// never after a rollback. A call whose stub throws declares nothing.
    ///
    /// - Warning: A call without a write transaction cannot change a table:
    ///   it declares nothing and fails the test at the mock's call site.
    /// - Parameter table: The table's name, matched case-insensitively
    ///   (ASCII).
    public func declaresChange(table: String) {
        state.withValue { state in
            if !state.declaredTables.contains(table) {
                state.declaredTables.append(table)
            }
        }
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

    /// Declares that every successful call read `table`, so that a value
    /// observation whose fetch makes the call fetches again after the table
    /// changes, on `MockDB`, which has no tables to read.
    ///
    /// ```swift
    /// messages.unreadCount.stub { _ in 3 }
    /// messages.unreadCount.declaresRead(table: "message")
    /// ```
    ///
    /// It applies to the calls made afterwards, until ``reset()``. A call
    /// whose stub throws, or that received no transaction, declares nothing.
    ///
    /// - Parameter table: The table's name, matched case-insensitively
    ///   (ASCII).
    public func declaresRead(table: String) {
        state.withValue { state in
            if !state.readTables.contains(table) {
                state.readTables.append(table)
            }
        }
    }

    /// Forgets the stub, the declared reads and changes, and the calls.
    public func reset() {
        state.setValue(State())
    }

    /// Handles one call from the mock: checks `tx`, records `arguments`, and
    /// answers from the stub, or records a test failure and throws
    /// ``UnimplementedError`` when nobody stubbed the method.
    ///
    /// When the stub answered, the changes of ``declaresChange(table:)``
    /// are declared on `tx`, a write transaction (a test failure is
    /// recorded when it is not one).
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
        let context = MockCallTransaction.record(tx, method: self, name: "\(Mock.self).\(function)")
        let (stub, declaredTables, readTables) = state.withValue { state in
            state.calls.append(arguments)
            state.callTransactions.append(context)
            if state.memberName.isEmpty { state.memberName = "\(Mock.self).\(function)" }
            return (state.stub, state.declaredTables, state.readTables)
        }
        guard let stub else {
            throw unimplemented(
                function, in: Mock.self, fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column),
                staticFilePath: filePath)
        }
        let result = try stub(arguments, tx)
        declareTables(
            read: readTables, changed: declaredTables, tx: tx, member: "\(Mock.self).\(function)", fileID: fileID,
            filePath: filePath, line: line, column: column)
        return result
    }
}

extension MockMethod {
    /// Handles one call from a mock member that cannot throw (a property,
    /// a non-throwing or `rethrows` method): checks `tx`, records
    /// `arguments`, and answers from the stub.
    ///
    /// When nobody stubbed it, or its stub throws, the failure is recorded
    /// at the call site as for
    /// ``call(_:_:in:function:fileID:filePath:line:column:)`` and the run
    /// goes on: the member returns `()` or `nil` when its result is `Void`
    /// or an optional. Any other result has no value to make up: then the
    /// process stops with the same message (see ``MockFailureDefault``).
    /// Stub such members before the code under test runs.
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
            return mockFailureDefault(
                error, member: "\(Mock.self).\(function)", stubbed: isStubbed, fileID: fileID, filePath: filePath,
                line: line, column: column)
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
