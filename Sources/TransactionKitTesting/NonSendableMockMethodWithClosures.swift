import TransactionKit

/// A ``NonSendableMockMethod`` for a member that takes closures or `inout`
/// arguments, as ``MockMethodWithClosures`` is to ``MockMethod``.
///
/// **Threads:** not `Sendable`: use it from the test's isolation.
public final class NonSendableMockMethodWithClosures<Arguments, Closures, Result>:
    MockMethodCore<Arguments, Closures, Result>
{
    /// Creates a method with no stub and no calls.
    public override init() {}

    /// Answers every call with `body`'s result (or error). It replaces the
    /// previous stub.
    ///
    /// - Parameter body: Receives the call's recorded arguments and its
    ///   closure and `inout` arguments.
    public func stub(_ body: @escaping (Arguments, Closures) throws -> Result) {
        setStub { arguments, closures, _ in try body(arguments, closures) }
    }

    /// Answers every call with `body`'s result (or error), given the call's
    /// transaction too (`nil` for a member that receives none; valid while
    /// the stub runs).
    ///
    /// - Parameter body: Receives the call's recorded arguments, its
    ///   closure and `inout` arguments, and its transaction.
    public func stubWithTransaction(_ body: @escaping (Arguments, Closures, DBReadTransaction?) throws -> Result) {
        setStub(body)
    }
}
