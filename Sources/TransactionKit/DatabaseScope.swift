import Dispatch
import Synchronization

/// The identity of one `DB` instance, and the state its transactions share:
/// the nesting checks are keyed by it, and it tracks the async completions
/// that are scheduled but have not run yet.
///
/// Each `MockDB` and each `SQLiteDB` owns exactly one scope. Nothing is
/// global: two databases never see each other's state.
package final class DatabaseScope: Sendable {
    private let pendingAsyncCompletions = Atomic<Int>(0)
    private let asyncCompletionGroup = DispatchGroup()

    package init() {}

    /// The number of async completions scheduled but not finished yet.
    package var pendingAsyncCompletionCount: Int {
        pendingAsyncCompletions.load(ordering: .acquiring)
    }

    /// Called before an async completion is handed to its queue or executor.
    package func asyncCompletionWillStart() {
        asyncCompletionGroup.enter()
        pendingAsyncCompletions.add(1, ordering: .acquiringAndReleasing)
    }

    /// Called once an async completion has run.
    package func asyncCompletionDidFinish() {
        pendingAsyncCompletions.subtract(1, ordering: .acquiringAndReleasing)
        asyncCompletionGroup.leave()
    }

    /// Suspends until every async completion scheduled so far has run.
    package func waitForAsyncCompletions() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            asyncCompletionGroup.notify(queue: .global()) {
                continuation.resume()
            }
        }
    }
}
