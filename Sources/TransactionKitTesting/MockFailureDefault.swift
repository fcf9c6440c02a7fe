import TransactionKit

/// What a mock member that cannot throw answers when it has no answer: it
/// was not stubbed, its stub threw, or its stub returned a value of the
/// wrong type.
///
/// The failure is recorded at the mock's call site (a Swift Testing issue,
/// or `XCTFail`), as for a forgotten stub of a throwing member, and then:
///
/// - a `Void` member returns normally, an optional one returns `nil`, and
///   the run goes on;
/// - any other result has no value a mock could make up without hiding the
///   mistake: the process stops with the same message, naming the member
///   and the call site.
///
/// Stub non-throwing members with non-optional results before the code
/// under test runs.
public enum MockFailureDefault {
    /// The value a member of result type `Result` answers after a recorded
    /// failure: `()` or `nil`, or `nil` when there is none.
    public static func value<Result>(of type: Result.Type) -> Result? {
        if Result.self == Void.self { return (() as! Result) }
        if let optional = type as? any _MockOptional.Type { return optional._mockNone as? Result }
        return nil
    }
}

/// Optionals, whose `nil` is a mock's default answer.
public protocol _MockOptional {
    static var _mockNone: Any { get }
}

extension Optional: _MockOptional {
    public static var _mockNone: Any { Wrapped?.none as Any }
}

/// The error a mock throws when a stub's value has the wrong type for the
/// member (a generic result, a stub set through a type-erased channel),
/// after the failure was recorded at the call site.
public struct MockTypeMismatchError: Error, Sendable, CustomStringConvertible {
    /// The member, as `Mock.member(label:)`.
    public let member: String
    /// The type the member needed.
    public let expected: String
    /// The type the stub gave.
    public let actual: String

    /// Names the member and both types.
    public var description: String {
        "\(member): the stub answered a value of type \(actual), but this call needs \(expected). "
            + "Stub the member with a value of the type the call site expects."
    }
}

/// Casts a stub's answer to the type a call needs, or records a failure
/// naming the member at the call site and throws
/// ``MockTypeMismatchError``. Generated mocks call it for generic and
/// opaque results, instead of a cast that would trap.
///
/// - Parameters:
///   - value: The stub's answer.
///   - type: The type the call needs.
///   - mock: The mock, which names the member in failures.
///   - function: The mock's member; leave the default.
///   - fileID: The call site, for failures; leave the default.
///   - filePath: The call site, for failures; leave the default.
///   - line: The call site, for failures; leave the default.
///   - column: The call site, for failures; leave the default.
/// - Returns: `value` as a `T`.
/// - Throws: ``MockTypeMismatchError``.
public func mockCast<T, Mock>(
    _ value: Any,
    to type: T.Type,
    in mock: Mock,
    function: String = #function,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) throws -> T {
    if let typed = value as? T { return typed }
    let site = MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
    let error = MockTypeMismatchError(member: site.member, expected: "\(T.self)", actual: "\(Swift.type(of: value))")
    site.recordFailure(error.description)
    throw error
}

/// ``mockCast(_:to:in:function:fileID:filePath:line:column:)`` for a member
/// that cannot throw: after the recorded failure it answers as
/// ``MockFailureDefault`` says.
public func mockCastWithoutThrowing<T, Mock>(
    _ value: Any,
    to type: T.Type,
    in mock: Mock,
    function: String = #function,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> T {
    do {
        return try mockCast(
            value, to: type, in: mock, function: function, fileID: fileID, filePath: filePath, line: line,
            column: column)
    } catch {
        return MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
            .failureDefault(after: error)
    }
}

/// A box for an `inout` argument of a mocked method: the stub reads the
/// value the caller passed and sets the one the caller gets back.
///
/// ```swift
/// mock.normalize.stub { original, name in name.value = original.lowercased() }
/// ```
///
/// **Threads:** not `Sendable`; valid while the stub runs.
public final class MockInout<Value> {
    /// The argument's value: the caller's on entry, the caller's again on
    /// return.
    public var value: Value

    /// Boxes `value`.
    public init(_ value: Value) {
        self.value = value
    }
}

extension MockFailureDefault {
    /// The answer of a mock member that cannot throw `error` (a member
    /// with typed throws, given another error): the failure is recorded at
    /// the call site unless it already was, then the member answers as
    /// ``MockFailureDefault`` says.
    ///
    /// - Parameters:
    ///   - error: What the stub threw.
    ///   - mock: The mock, which names the member in failures.
    ///   - function: The mock's member; leave the default.
    ///   - fileID: The call site, for failures; leave the default.
    ///   - filePath: The call site, for failures; leave the default.
    ///   - line: The call site, for failures; leave the default.
    ///   - column: The call site, for failures; leave the default.
    public static func answer<Result, Mock>(
        after error: any Error,
        in mock: Mock,
        function: String = #function,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Result {
        MockCallSite(Mock.self, function: function, fileID: fileID, filePath: filePath, line: line, column: column)
            .failureDefault(after: error)
    }
}
