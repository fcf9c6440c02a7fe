import TransactionKit

/// A ``MockMethod`` for arguments or results that are not `Sendable`
/// (`any P` of a protocol that is not `Sendable`, closures, classes): the
/// method is not `Sendable` either, so the compiler keeps it, the values it
/// records, and its stub in the isolation that owns the mock, the test's.
///
/// ```swift
/// let mock = ImageLoaderMock()          // not Sendable: it stays in this test
/// mock.load.stub { url in NSImage() }
/// ```
///
/// **Threads:** not `Sendable`: use it from the test's isolation. A mock of
/// a protocol that requires `Sendable` but passes such values is the one
/// exception, documented on the mock (`@unchecked Sendable`).
public final class NonSendableMockMethod<Arguments, Result>: MockMethodCore<Arguments, Void, Result> {
    /// Creates a method with no stub and no calls.
    public override init() {}

    /// Answers every call with `body`'s result (or error). It replaces the
    /// previous stub.
    ///
    /// - Parameter body: Receives the call's recorded arguments.
    public func stub(_ body: @escaping (Arguments) throws -> Result) {
        setStub { arguments, _, _ in try body(arguments) }
    }

    /// Answers every call with `body`'s result (or error), given the call's
    /// transaction too (`nil` for a member that receives none; valid while
    /// the stub runs).
    ///
    /// - Parameter body: Receives the call's arguments and transaction.
    public func stubWithTransaction(_ body: @escaping (Arguments, DBReadTransaction?) throws -> Result) {
        setStub { arguments, _, tx in try body(arguments, tx) }
    }
}
