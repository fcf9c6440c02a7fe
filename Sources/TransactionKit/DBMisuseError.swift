/// The error a TransactionKit API throws, under a test runner, after it
/// recorded a programmer error as a test failure.
///
/// A programmer error (a transaction used after its block returned, a
/// transaction opened inside another one of the same database, a `MockDB`
/// transaction passed to `SQLiteDB.shimOnlyBridge(_:)`) stops the process
/// in production, with a message naming the call site and the fix. In a
/// test binary that links `TransactionKitTesting`, the same detection
/// records a failure of the running test (Swift Testing or XCTest) at the
/// call site instead, and the run goes on to its summary: the test that made
/// the mistake fails, the others run. Where the API can throw, it then
/// throws this error, so that the code under test stops at the mistake:
///
/// ```swift
/// @Test func sendingStoresTheMessage() throws {
///     let db = MockDB()
///     // A real finder instead of its mock: the bridge records
///     // "SQLiteDB.shimOnlyBridge received a transaction that came from a
///     // MockDB …" at the finder's line, and throws DBMisuseError.
///     let manager = ComposeManager(db: db, messages: SQLMessageFinder())
///     _ = try manager.send(draft)
/// }
/// ```
///
/// Where the API cannot throw (`addFinalization`, the completions,
/// `preconditionActive()`), the failure is recorded and the call is ignored.
///
/// Do not catch it to recover: it stands for a bug in the calling code.
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
