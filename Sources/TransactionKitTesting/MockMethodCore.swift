import TransactionKit

/// What every mock method does: record each call and the transaction it
/// ran in, answer from the stub, declare the tables a call reads and
/// changes, and fail the test loudly when nobody stubbed the method.
///
/// A mock declares one of its four subclasses per member. They differ only
/// in what their values must be and in what their stubs receive:
///
/// | Method | Arguments and result | The stub also receives |
/// | --- | --- | --- |
/// | ``MockMethod`` | `Sendable` | — |
/// | ``MockMethodWithClosures`` | `Sendable` | the closure and `inout` arguments |
/// | ``NonSendableMockMethod`` | any | — |
/// | ``NonSendableMockMethodWithClosures`` | any | the closure and `inout` arguments |
///
/// ```swift
/// @Test func sendingInsertsTheMessage() throws {
///     let messages = MessageFinderMock()   // one MockMethod per member (see MockMethod)
///     messages.insert.returns(Message(id: 1, conversationID: 7, body: "hi"))
///     messages.insert.declaresChange(table: "message")   // for commit observers
///     try ComposeManager(db: MockDB(), messages: messages).send("hi", to: 7)
///     #expect(messages.insert.calls.map(\.body) == ["hi"])
///     #expect(messages.insert.ranOnlyInCommittedWrites)
/// }
/// ```
///
/// **Transactions:** a call checks its transaction first, so a mock catches
/// an escaped transaction where a real finder would, and the call is logged
/// in the transaction it ran in (``callRecords``, ``TransactionLog``).
/// `MockDB` has no tables: ``declaresChange(table:)`` and
/// ``declaresRead(table:)`` tell its observers what a method writes and
/// reads.
///
/// **Threads:** the state is behind a lock, and the stub runs outside it,
/// on the thread of the call. ``MockMethod`` and ``MockMethodWithClosures``
/// are `Sendable`; the non-`Sendable` methods stay in the isolation that
/// owns the mock, the test's.
public class MockMethodCore<Arguments, Closures, Result> {
    /// A stub, given the call's recorded arguments, its closure and `inout`
    /// arguments, and its transaction.
    typealias Stub = (Arguments, Closures, DBReadTransaction?) throws -> Result

    struct State {
        var stub: Stub?
        /// Every call, in order, with the transaction it ran in.
        var calls: [MockCall<Arguments>] = []
        /// The mock's type and member, from the first call.
        var memberName = ""
        var tables = MockDeclaredTables()
    }

    // A lock even for the non-`Sendable` subclasses: one implementation,
    // and the `Sendable` ones hold only `Sendable` values and stubs in it.
    let state = LockedValue(State())

    init() {}

    /// Sets the stub every call answers from, replacing the previous one.
    /// The subclasses take the test's closure, `@Sendable` when they are.
    func setStub(_ stub: @escaping Stub) {
        state.withLock { $0.stub = stub }
    }

    /// The arguments of every call so far, in order (without the closure
    /// and `inout` arguments, which are never recorded).
    public var calls: [Arguments] {
        state.withLock { $0.calls.map(\.arguments) }
    }

    /// The number of calls so far.
    public var callCount: Int {
        state.withLock { $0.calls.count }
    }

    /// Whether a stub is set.
    public var isStubbed: Bool {
        state.withLock { $0.stub != nil }
    }

    /// Answers every call with `value`. It replaces the previous stub.
    ///
    /// - Parameter value: The result of every call.
    public func returns(_ value: Result) {
        setStub { _, _, _ in value }
    }

    /// Fails every call with `error`. It replaces the previous stub.
    ///
    /// - Parameter error: The error every call throws.
    public func fails(with error: any Error) {
        setStub { _, _, _ in throw error }
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
        state.withLock { $0.tables.addChanged(table) }
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
        state.withLock { $0.tables.addRead(table) }
    }

    /// Forgets the stub, the declared reads and changes, and the calls.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Answers one call from the mock, the body of every `call` method:
    /// checks `tx`, records `arguments` and the transaction the call ran
    /// in, and answers from the stub, or records a test failure at `site`
    /// and throws ``UnimplementedError`` when nobody stubbed the method.
    /// When the stub answered, the declared tables are declared on `tx`.
    func answer(_ arguments: Arguments, closures: Closures, _ tx: DBReadTransaction?, at site: MockCallSite) throws -> Result {
        tx?.preconditionActive(file: site.fileID, line: site.line)
        let context = MockCallTransaction.record(tx, method: self, name: site.member)
        let (stub, tables) = state.withLock { state in
            state.calls.append(MockCall(arguments: arguments, context: context))
            if state.memberName.isEmpty { state.memberName = site.member }
            return (state.stub, state.tables)
        }
        guard let stub else { throw site.unimplemented() }
        let result = try stub(arguments, closures, tx)
        tables.declare(on: tx, at: site)
        return result
    }

    /// ``answer(_:closures:_:at:)`` for a member that cannot throw: a
    /// missing stub or a stub's error is recorded at `site` and answered as
    /// ``MockFailureDefault`` says.
    func answerWithoutThrowing(
        _ arguments: Arguments, closures: Closures, _ tx: DBReadTransaction?, at site: MockCallSite
    ) -> Result {
        do {
            return try answer(arguments, closures: closures, tx, at: site)
        } catch {
            return site.failureDefault(after: error)
        }
    }
}

extension MockMethodCore where Result == Void {
    /// Answers every call by returning normally.
    public func returns() {
        returns(())
    }
}
