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

    /// Throws `CancellationError` once the task was cancelled: once the
    /// handler set the flag, or, where the block runs in the task (an async
    /// block, or one of its child tasks), once the task is marked
    /// cancelled. The runtime marks a task cancelled (and cancels the child
    /// tasks it registered later) before it runs the handler: a block that
    /// saw `Task.isCancelled`, on a thread of its own, may return before
    /// the flag is set, and must not commit.
    package func check() throws(CancellationError) {
        if isCancelled || Task.isCancelled {
            throw CancellationError()
        }
    }

    package var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) != 0
    }
}
