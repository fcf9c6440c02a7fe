import TransactionKit

/// Takes the misuse reports of the task it is bound to, in place of test
/// failures: for this package's differential tests, which make misuses on
/// purpose by the thousand and compare the reports between backends (with
/// `withKnownIssue`, each would be printed).
///
/// The misuse still throws ``/TransactionKit/DBMisuseError`` where it would
/// under a test runner; only the recording changes. Bound with
/// `MisuseCollector.$current.withValue(collector) { … }`, it sees the
/// misuses made on that task (a synchronous block runs on the caller's
/// thread, so its misuses are seen too).
package final class MisuseCollector: Sendable {
    /// The collector of the current task, if any.
    @TaskLocal package static var current: MisuseCollector?

    /// `LockedValue`, not `Mutex`: the thread sanitizer sees its lock.
    private let messages = LockedValue<[String]>([])

    package init() {}

    /// The messages collected so far, in order, removed.
    package func drain() -> [String] {
        messages.withLock { messages in
            defer { messages = [] }
            return messages
        }
    }

    func collect(_ message: String) {
        messages.withLock { $0.append(message) }
    }
}
