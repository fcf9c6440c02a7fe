/// A registration made with ``DB/observeCommits(tables:keyValueCollections:queue:_:)``:
/// keep it for as long as you want to hear about commits.
///
/// ```swift
/// final class InboxModel {
///     private var observation: DBCommitObservation?
///
///     func start(db: any DB) {
///         observation = db.observeCommits(tables: ["message"]) { [weak self] _ in self?.reload() }
///     }
/// }
/// ```
///
/// **Lifetime:** the observation ends when ``cancel()`` is called or when
/// this object is deallocated, whichever comes first.
///
/// **Thread:** any; `DBCommitObservation` is `Sendable`.
public final class DBCommitObservation: Sendable {
    private let registry: CommitObservers
    private let id: Int
    private let flag: CancelledFlag

    /// Shared by the observation and the delivery closure, which must not
    /// retain the observation (or it would never be deallocated).
    final class CancelledFlag: InlineAtomicWords, Sendable {
        // First stored property, inline. Only `atomicWord(_:)` touches it.
        nonisolated(unsafe) private var storage = 0
        private var cancelled: AtomicWord { atomicWord(0) }
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) != 0 }
        func cancel() { cancelled.store(1, ordering: .releasing) }
    }

    init(registry: CommitObservers, id: Int, flag: CancelledFlag) {
        self.registry = registry
        self.id = id
        self.flag = flag
    }

    /// Stops the observation. Idempotent.
    ///
    /// ```swift
    /// observation.cancel()
    /// ```
    ///
    /// No call of the callback begins after `cancel()` returned; a call that
    /// is already running on the observation's queue finishes.
    public func cancel() {
        flag.cancel()
        registry.remove(id)
    }

    deinit {
        cancel()
    }
}
