/// Where the misuse reports of the task it is bound to go, in place of the
/// test runner: a hook for this package's own tests, which make misuses on
/// purpose and compare the reports between backends (the differential
/// tests bind their collector with it). Not API.
///
/// The misuse still throws ``/TransactionKit/DBMisuseError`` where it would
/// under a test runner; only the recording changes. Bound with
/// `MisuseReportHandler.$current.withValue({ message in … }) { … }`, it sees
/// the misuses made on that task (a synchronous block runs on the caller's
/// thread, so its misuses are seen too).
package enum MisuseReportHandler {
    /// The handler of the current task, if any.
    @TaskLocal package static var current: (@Sendable (_ message: String) -> Void)?
}
