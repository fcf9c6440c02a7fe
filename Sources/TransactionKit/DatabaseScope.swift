import Dispatch
import Synchronization

/// The identity of one `DB` instance, and the state its transactions share:
/// the nesting checks are keyed by it, and it tracks the async completions
/// that are scheduled but have not run yet.
///
/// Each `MockDB` and each `SQLiteDB` owns exactly one scope. Nothing is
/// global: two databases never see each other's state.
///
/// The scope also holds what ``KeyValueStore`` and commit observation need
/// from the database, so that they reach it through any transaction:
/// the backend's ``KeyValueStorage``, the ``CommitObservers``, and the
/// changes of the write transaction that is about to commit.
package final class DatabaseScope: Sendable {
    private let pendingAsyncCompletions = Atomic<Int>(0)
    private let asyncCompletionGroup = DispatchGroup()

    /// The storage behind ``KeyValueStore`` (`nil`: the database has none).
    package let keyValueStorage: (any KeyValueStorage)?

    /// The observers of this database's commits.
    package let commitObservers = CommitObservers()

    /// The changes the committing write transaction recorded (key-value
    /// collections, declared tables), staged by the engine once the block
    /// and finalizations succeeded, and taken by the backend when the commit
    /// succeeded or failed. Only the holder of the database's write
    /// serialization (MockDB's write lock, held by a thread or by an async
    /// write's task; GRDB's writer queue) touches it, and that
    /// serialization orders every access.
    nonisolated(unsafe) private var stagedChanges: DBChanges?

    /// Whether the backend serializes writes and reports its commits
    /// (``commitDidSucceed(detectedTables:)``), so that ``stageCommit(_:)``
    /// keeps the changes. `false` for a backend whose writes run side by
    /// side (`PostgresDB`): there, several writes stage at once, and
    /// keeping their changes in this one field would be a data race.
    private let observesCommits: Bool

    package init(keyValueStorage: (any KeyValueStorage)? = nil, observesCommits: Bool = true) {
        self.keyValueStorage = keyValueStorage
        self.observesCommits = observesCommits
    }

    // MARK: - Commit observation (under the write serialization)

    /// Called by the engine, inside the write transaction, just before the
    /// backend commits.
    package func stageCommit(_ changes: DBChanges?) {
        if observesCommits {
            stagedChanges = changes
        }
    }

    /// Called by the backend once the commit succeeded, before it releases
    /// its write serialization: tells the observers about the staged changes
    /// and the tables the backend saw change itself.
    package func commitDidSucceed(detectedTables: Set<String> = []) {
        var changes = stagedChanges ?? DBChanges()
        stagedChanges = nil
        changes.tables.formUnion(detectedTables)
        commitObservers.notify(changes)
    }

    /// Called by the backend when the write rolled back (or its commit
    /// failed): nobody hears about it.
    package func commitDidFail() {
        stagedChanges = nil
    }

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
