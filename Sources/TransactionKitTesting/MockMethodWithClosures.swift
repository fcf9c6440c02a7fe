import TransactionKit

/// A ``MockMethod`` for a member that takes closures or `inout`
/// arguments: the stub receives them (it can call `block` with rows, or set
/// a ``MockInout``'s value), and the calls record only the other arguments.
///
/// ```swift
/// rows.enumerate.stub { conversationID, block in
///     block(Row(id: 1))
///     block(Row(id: 2))
/// }
/// ```
///
/// **Threads:** `Sendable`; the state is behind a lock, and the stub runs
/// outside it, on the thread of the call. The closures are valid while the
/// stub runs: a non-escaping one must not be kept.
public final class MockMethodWithClosures<Arguments: Sendable, Closures, Result: Sendable>: Sendable {
    typealias Stub = @Sendable (Arguments, Closures, DBReadTransaction?) throws -> Result

    struct State: Sendable {
        var stub: Stub?
        var calls: [Arguments] = []
        /// Where each call ran, in call order.
        var callTransactions: [MockCallTransaction] = []
        /// The mock's type and member, from the first call.
        var memberName = ""
        var declaredTables: [String] = []
        var readTables: [String] = []
    }

    let state = Locked(State())

    /// Creates a method with no stub and no calls.
    public init() {}

    /// The recorded arguments of every call so far, in order.
    public var calls: [Arguments] {
        state.value.calls
    }

    /// The number of calls so far.
    public var callCount: Int {
        calls.count
    }

    /// Whether a stub is set.
    public var isStubbed: Bool {
        state.value.stub != nil
    }

    /// Answers every call with `body`'s result (or error). It replaces the
    /// previous stub.
    ///
    /// - Parameter body: Receives the call's recorded arguments and its closure and `inout` arguments.
    public func stub(_ body: @escaping @Sendable (Arguments, Closures) throws -> Result) {
        state.withValue { $0.stub = { arguments, closures, _ in try body(arguments, closures) } }
    }

    /// Answers every call with `body`'s result (or error), given the call's
    /// transaction too (`nil` for a member that receives none; valid while
    /// the stub runs).
    ///
    /// - Parameter body: Receives the call's arguments and transaction.
    public func stubWithTransaction(_ body: @escaping @Sendable (Arguments, Closures, DBReadTransaction?) throws -> Result) {
        state.withValue { $0.stub = body }
    }

    /// Answers every call with `value`.
    ///
    /// - Parameter value: The result of every call.
    public func returns(_ value: Result) {
        state.withValue { $0.stub = { _, _, _ in value } }
    }

    /// Fails every call with `error`.
    ///
    /// - Parameter error: The error every call throws.
    public func fails(with error: any Error & Sendable) {
        state.withValue { $0.stub = { _, _, _ in throw error } }
    }

    /// Declares that every successful call with a write transaction changed
    /// `table`, as ``MockMethod/declaresChange(table:)`` does.
    ///
    /// - Parameter table: The table's name.
    public func declaresChange(table: String) {
        state.withValue { state in if !state.declaredTables.contains(table) { state.declaredTables.append(table) } }
    }

    /// Declares that every successful call read `table`, as
    /// ``MockMethod/declaresRead(table:)`` does.
    ///
    /// - Parameter table: The table's name.
    public func declaresRead(table: String) {
        state.withValue { state in if !state.readTables.contains(table) { state.readTables.append(table) } }
    }

    /// Forgets the stub, the declared reads and changes, and the calls.
    public func reset() {
        state.setValue(State())
    }

    /// Handles one call from the mock: checks `tx`, records `arguments`, and
    /// answers from the stub, or records a test failure and throws
    /// ``UnimplementedError`` when nobody stubbed the method.
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
        let result = try stub(arguments, closures, tx)
        declareTables(
            read: readTables, changed: declaredTables, tx: tx, member: "\(Mock.self).\(function)", fileID: fileID,
            filePath: filePath, line: line, column: column)
        return result
    }

    /// Handles one call from a member that cannot throw: as
    /// ``call(_:closures:_:in:function:fileID:filePath:line:column:)``, but a missing
    /// stub or a stub's error is recorded and answered as
    /// ``MockFailureDefault`` says.
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
        do {
            return try call(
                arguments, closures: closures, tx, in: mock, function: function, fileID: fileID, filePath: filePath, line: line,
                column: column)
        } catch {
            return mockFailureDefault(
                error, member: "\(Mock.self).\(function)", stubbed: isStubbed, fileID: fileID, filePath: filePath,
                line: line, column: column)
        }
    }
}

extension MockMethodWithClosures where Result == Void {
    /// Answers every call by returning normally.
    public func returns() {
        returns(())
    }
}
