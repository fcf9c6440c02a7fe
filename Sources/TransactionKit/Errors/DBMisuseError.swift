/// The error a TransactionKit API throws, under a test runner, after it
/// recorded a programmer error as a test failure.
///
/// A programmer error (a transaction used after its block returned or from
/// another thread or task, one opened inside another of the same database,
/// a `MockDB` transaction passed to a `shimOnlyBridge`) stops the process,
/// with a message naming the call site and the fix. In a test binary that
/// links `TransactionKitTesting`, it fails the running test (Swift Testing
/// or XCTest) at the call site instead, and the other tests run. Where the
/// API can throw, it then throws this error, so that the code under test
/// stops at the mistake; where it cannot (`addFinalization`, the
/// completions, `preconditionActive()`), the call is ignored.
///
/// ```swift
/// @Test func sendingStoresTheMessage() throws {
///     // A real finder instead of its mock: its bridge fails the test at
///     // the finder's line and throws DBMisuseError.
///     let manager = ComposeManager(db: MockDB(), messages: SQLMessageFinder())
///     _ = try manager.send(draft)
/// }
/// ```
///
/// - Warning: Do not catch it to recover: it stands for a bug in the
///   calling code.
public struct DBMisuseError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and how to fix it.
    public let message: String
    /// The `#fileID` of the call that made the mistake.
    public let fileID: String
    /// The line of the call that made the mistake.
    public let line: Int

    package init(message: String, fileID: String, line: Int) {
        self.message = message
        self.fileID = fileID
        self.line = line
    }

    /// The call site, then the message.
    public var description: String {
        "\(fileID):\(line): \(message)"
    }
}
