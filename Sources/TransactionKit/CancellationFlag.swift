import Synchronization

/// Whether the task that began an async transaction was cancelled while the
/// transaction ran. The engine sets it from a cancellation handler and checks
/// it when the block returns, so that every backend ends a cancelled
/// transaction the same way: a write rolls back before its finalizations and
/// throws `CancellationError`; a read throws `CancellationError` instead of
/// returning. (GRDB alone would run the finalizations and fail at `COMMIT`,
/// and would let a read whose block ran no statement after the cancellation
/// return its value; `MockDB` alone would commit.)
package final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    package init() {}

    package func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Throws `CancellationError` once the task was cancelled.
    @inlinable
    package func check() throws(CancellationError) {
        if isCancelled {
            throw CancellationError()
        }
    }

    @usableFromInline
    package var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}
