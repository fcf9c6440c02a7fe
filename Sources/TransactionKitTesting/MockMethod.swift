import TransactionKit

/// One method of a mock, for `Sendable` arguments and result: its stub, and
/// the calls it received. The mock forwards each call to it, which checks
/// the transaction, records the arguments, and answers from the stub, or
/// fails the test through
/// ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)`` when
/// nobody stubbed it (see ``MockMethodCore``, which holds what every mock
/// method does).
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
///     try ComposeManager(db: MockDB(), messages: messages).send("hi", to: 7)
///     #expect(messages.insert.calls.map(\.body) == ["hi"])
/// }
/// ```
///
/// **Threads:** `Sendable`; the state is behind a lock, and the stub runs
/// outside it, on the thread of the call. For values that are not
/// `Sendable`, use ``NonSendableMockMethod``.
public final class MockMethod<Arguments: Sendable, Result: Sendable>: MockMethodCore<Arguments, Void, Result>,
    @unchecked Sendable
{
    // `@unchecked`: the state is behind the core's lock, and everything in
    // it is `Sendable`: the arguments, and stubs that are `@Sendable`.

    /// Creates a method with no stub and no calls.
    public override init() {}

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
        setStub { arguments, _, _ in try body(arguments) }
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
    /// ``MockMethodCore/declaresChange(table:)`` needs no stub of this kind.
    ///
    /// **Transactions:** `tx` is the transaction the mock passed to
    /// ``MockMethodCore/call(_:_:in:function:fileID:filePath:line:column:)``
    /// (cast it with `as? DBWriteTransaction` in a write), `nil` for a
    /// member that receives none. It is valid while the stub runs; do not
    /// keep it.
    ///
    /// **Thread:** the thread of the call, outside the method's lock.
    ///
    /// - Parameter body: Receives the call's arguments and transaction.
    public func stubWithTransaction(_ body: @escaping @Sendable (Arguments, DBReadTransaction?) throws -> Result) {
        // Not an overload of `stub(_:)`: with several arguments, a closure of
        // two parameters could mean the arguments taken apart, or the
        // arguments and the transaction.
        setStub { arguments, _, tx in try body(arguments, tx) }
    }
}
