import TransactionKit
import TransactionKitTesting

/// Takes the misuse reports made while it collects, in place of test
/// failures: the differential tests make misuses on purpose by the thousand
/// and compare the reports between backends (with `withKnownIssue`, each
/// would be printed).
///
/// The misuse still throws ``/TransactionKit/DBMisuseError`` where it would
/// under a test runner; only the recording changes. It sees the misuses made
/// on the task that runs `collecting`'s body (a synchronous block runs on the
/// caller's thread, so its misuses are seen too), through the
/// ``MisuseReportHandler`` hook of TransactionKitTesting.
final class MisuseCollector: Sendable {
    /// `LockedValue`, not `Mutex`: the thread sanitizer sees its lock.
    private let messages = LockedValue<[String]>([])

    /// Runs `body`, collecting the misuse reports of this task.
    func collecting<T>(_ body: () throws -> T) rethrows -> T {
        try MisuseReportHandler.$current.withValue({ [self] message in collect(message) }, operation: body)
    }

    /// Runs the async `body`, collecting the misuse reports of this task.
    func collecting<T>(_ body: () async throws -> T) async rethrows -> T {
        try await MisuseReportHandler.$current.withValue({ [self] message in collect(message) }, operation: body)
    }

    /// The messages collected so far, in order, removed.
    func drain() -> [String] {
        messages.withLock { messages in
            defer { messages = [] }
            return messages
        }
    }

    private func collect(_ message: String) {
        messages.withLock { $0.append(message) }
    }
}
