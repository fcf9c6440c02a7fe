/// Whether the task that began an async transaction was cancelled while the
/// transaction ran. The engine sets it from a cancellation handler and checks
/// it when the block returns: a cancelled write rolls back before its
/// finalizations, a cancelled read throws instead of returning, on every
/// backend.
package final class CancellationFlag: InlineAtomicWords, Sendable {
    // Without it, GRDB would run the finalizations and fail at `COMMIT` (and
    // let a read that ran no statement after the cancellation return its
    // value), and `MockDB` would commit.

    // First stored property, inline: one allocation per async transaction,
    // not two. Only `atomicWord(_:)` touches it.
    nonisolated(unsafe) private var storage = 0
    private var cancelled: AtomicWord { atomicWord(0) }

    package init() {}

    package func cancel() {
        cancelled.store(1, ordering: .releasing)
    }

    /// Throws `CancellationError` once the task was cancelled.
    package func check() throws(CancellationError) {
        if isCancelled {
            throw CancellationError()
        }
    }

    package var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) != 0
    }
}
