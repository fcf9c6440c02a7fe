import Testing
#if canImport(XCTest)
import XCTest
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The error a mock throws when the code under test calls a method that the
/// test did not stub, after ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)``
/// recorded the failure.
///
/// ``MockMethod`` throws it for you; a hand-written mock method throws
/// `unimplemented(in: Self.self)`, which names the method itself.
///
/// ```swift
/// func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
///     tx.preconditionActive()
///     guard let userStub = userStub.value else { throw unimplemented(in: Self.self) }
///     return try userStub(id)
/// }
/// ```
///
/// Throwing it stops the code under test at the unstubbed call, so that the
/// test fails at the first surprise instead of running on with made-up data.
public struct UnimplementedError: Error, Sendable, CustomStringConvertible {
    /// The mock method that was called, as the mock named it.
    public let method: String

    /// Creates the error for `method`. Prefer
    /// ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)``, which also records
    /// the test failure.
    ///
    /// - Parameter method: The method that nobody stubbed.
    public init(method: String) {
        self.method = method
    }

    /// Says which method was called and how to fix the test.
    public var description: String {
        "Unimplemented: \(method) was called, but the test did not stub it. "
            + "Stub it in the test if the call is expected; otherwise the code under test took a path the test did not plan for."
    }
}

/// Records that a mock method nobody stubbed was called, and returns the
/// error to throw from it — swift-dependencies' "unimplemented" idea.
///
/// ```swift
/// final class ClockMock: Clock, Sendable {
///     let nowStub = Locked<(@Sendable () -> Date)?>(nil)
///
///     func now() throws -> Date {
///         guard let nowStub = nowStub.value else { throw unimplemented(in: Self.self) }  // "ClockMock.now()"
///         return nowStub()
///     }
/// }
/// ```
///
/// ``MockMethod`` calls it for you, with the mock's type and method.
///
/// It fails the running test at the mock's call site (a Swift Testing issue
/// when a `@Test` runs on this task, otherwise `XCTFail`), writes the
/// message to standard error, and never stops the run. The thrown error may
/// fail the test a second time where it surfaces: read the first issue.
///
/// **Thread:** any; from a thread that runs no test task (a `DispatchQueue`
/// callback), the failure goes to XCTest and standard error.
///
/// - Warning: Returning a placeholder instead of throwing hides the mistake
///   from the code under test; throw the returned error.
/// - Parameters:
///   - method: The mock method; the default, `#function`, names the method
///     that calls `unimplemented()`, for example `user(id:_:)`.
///   - mockType: The mock's type, written in front of the method in the
///     message (`unimplemented(in: Self.self)`); `nil` to name the method
///     alone.
///   - fileID: The call site, for the recorded issue; leave the default.
///   - filePath: The call site, for the recorded issue; leave the default.
///   - line: The call site, for the recorded issue; leave the default.
///   - column: The call site, for the recorded issue; leave the default.
///   - staticFilePath: The call site, for `XCTFail`; leave the default.
/// - Returns: An ``UnimplementedError`` to throw.
public func unimplemented(
    _ method: String = #function,
    in mockType: Any.Type? = nil,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column,
    staticFilePath: StaticString = #filePath
) -> UnimplementedError {
    let error = UnimplementedError(method: mockType.map { "\($0).\(method)" } ?? method)
    recordMockFailure(
        error.description, fileID: fileID, filePath: filePath, line: line, column: column,
        staticFilePath: staticFilePath)
    return error
}

/// Fails the running test at a mock's call site, as
/// ``unimplemented(_:in:fileID:filePath:line:column:staticFilePath:)``
/// describes: an issue under Swift Testing, `XCTFail` under XCTest, and the
/// message on standard error in every case. The caller decides whether the
/// mock then throws or answers.
func recordMockFailure(
    _ message: String,
    fileID: String,
    filePath: String,
    line: Int,
    column: Int,
    staticFilePath: StaticString
) {
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    } else {
        #if canImport(XCTest)
        XCTFail(message, file: staticFilePath, line: UInt(line))
        #endif
    }
    let bytes = Array("\(fileID):\(line): \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
