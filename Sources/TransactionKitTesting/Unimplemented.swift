import Testing

/// The error a mock throws when the code under test calls a method that the
/// test did not stub, after ``unimplemented(_:fileID:filePath:line:column:)``
/// recorded the failure.
///
/// ```swift
/// func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
///     tx.preconditionActive()
///     userCalls.append(id)
///     guard let userStub else { throw unimplemented("ChatManager.Mocks.LegacyUserFinder.user(id:)") }
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
    /// ``unimplemented(_:fileID:filePath:line:column:)``, which also records
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
/// final class InboxManager_LegacyMessageFinderMock: InboxManager_LegacyMessageFinderShim {
///     var latestMessageStub: ((Int64) -> Message?)?
///
///     func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) throws -> Message? {
///         tx.preconditionActive()
///         guard let latestMessageStub else { throw unimplemented("InboxManager.Mocks.LegacyMessageFinder.latestMessage") }
///         return latestMessageStub(conversationID)
///     }
/// }
/// ```
///
/// **Under Swift Testing** (a `@Test` is running on this task), it records an
/// issue at the mock's call site: the current test fails, the other tests go
/// on. The mock then throws the returned error, which usually makes the test
/// fail a second time where the manager's error surfaces; the first issue is
/// the one to read.
///
/// **Anywhere else** (XCTest, a playground, a tool that wired a mock by
/// mistake), there is no test to fail, so it stops the process with the same
/// message: an unstubbed call must never pass silently.
///
/// **Thread:** any thread or task that runs on behalf of a test (Swift
/// Testing finds the test through a task-local value); the issue is
/// attributed to that test. Called from a thread that no test's task runs
/// (a `DispatchQueue` callback, say), it finds no test and stops the process.
///
/// - Warning: Returning a placeholder instead of throwing hides the mistake
///   from the code under test; throw the returned error.
/// - Parameters:
///   - method: The mock method, for example `"ChatManager.Mocks.LegacyUserFinder.user(id:)"`.
///   - fileID: The call site, for the recorded issue; leave the default.
///   - filePath: The call site, for the recorded issue; leave the default.
///   - line: The call site, for the recorded issue; leave the default.
///   - column: The call site, for the recorded issue; leave the default.
/// - Returns: An ``UnimplementedError`` to throw.
public func unimplemented(
    _ method: String,
    fileID: String = #fileID,
    filePath: String = #filePath,
    line: Int = #line,
    column: Int = #column
) -> UnimplementedError {
    let error = UnimplementedError(method: method)
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: error.description),
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    } else {
        fatalError("\(fileID):\(line): \(error.description)")
    }
    return error
}
