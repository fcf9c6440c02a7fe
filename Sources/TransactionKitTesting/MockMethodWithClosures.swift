import TransactionKit

/// A ``MockMethod`` for a member that takes closures or `inout` arguments:
/// the stub receives them (it can call `block` with rows, or set a
/// ``MockInout``'s value), and the calls record only the other arguments.
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
public final class MockMethodWithClosures<Arguments: Sendable, Closures, Result: Sendable>:
    MockMethodCore<Arguments, Closures, Result>, @unchecked Sendable
{
    // `@unchecked`: the state is behind the core's lock, and everything in
    // it is `Sendable`: the recorded arguments, and stubs that are
    // `@Sendable`. The closures reach the stub and are never stored.

    /// Creates a method with no stub and no calls.
    public override init() {}

    /// Answers every call with `body`'s result (or error). It replaces the
    /// previous stub.
    ///
    /// - Parameter body: Receives the call's recorded arguments and its
    ///   closure and `inout` arguments.
    public func stub(_ body: @escaping @Sendable (Arguments, Closures) throws -> Result) {
        setStub { arguments, closures, _ in try body(arguments, closures) }
    }

    /// Answers every call with `body`'s result (or error), given the call's
    /// transaction too (`nil` for a member that receives none; valid while
    /// the stub runs).
    ///
    /// - Parameter body: Receives the call's recorded arguments, its
    ///   closure and `inout` arguments, and its transaction.
    public func stubWithTransaction(_ body: @escaping @Sendable (Arguments, Closures, DBReadTransaction?) throws -> Result) {
        setStub(body)
    }
}
