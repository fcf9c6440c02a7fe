import Dispatch

/// The identity of one `DB` instance, and the state its transactions share:
/// the nesting checks are keyed by it, and it tracks the async completions
/// that are scheduled but have not run yet.
///
/// Each database owns exactly one scope. Nothing is global: two databases
/// never see each other's state. The scope also holds what ``KeyValueStore``
/// and commit observation need from the database, so that they reach it
/// through any transaction, and what a bridge needs to tell which database a
/// transaction came from.
package final class DatabaseScope: InlineAtomicWords, Sendable {
    // First stored property: `pendingAsyncCompletions`, inline (one
    // allocation fewer per database). Only `atomicWord(_:)` touches it.
    nonisolated(unsafe) private var storage = 0
    private var pendingAsyncCompletions: AtomicWord { atomicWord(0) }
    private let asyncCompletionGroup = DispatchGroup()

    /// The storage behind ``KeyValueStore`` (`nil`: the database has none).
    package let keyValueStorage: (any KeyValueStorage)?

    /// The storage side of savepoints
    /// (``DBWriteTransaction/inSavepoint(file:line:_:)-79bql``).
    package let savepoints: any SavepointStorage

    /// The observers of this database's commits.
    package let commitObservers = CommitObservers()

    /// The database's type, as misuse messages name it (`"MockDB"`).
    package let databaseName: String

    /// The type of the connection that this database's transactions carry
    /// while they run, or `nil` for a database without connections (a test
    /// double): what `DBReadTransaction.connection(as:bridge:at:)` checks.
    package let connectionType: Any.Type?

    /// What the backend tells of a fetch's reads, for value observation
    /// (`nil`: only declared reads are known).
    package let readTracking: (any ReadTracking)?

    /// What hears the life of every transaction (`MockDB`'s transaction
    /// log; `nil`: nothing does).
    package let tracer: (any TransactionTracer)?

    /// Creates the scope of one database.
    ///
    /// - Parameters:
    ///   - databaseName: The database's type, for messages.
    ///   - connectionType: The type of the connection its backend hands to
    ///     transactions, or `nil` when it hands none.
    ///   - keyValueStorage: The storage behind ``KeyValueStore``, if any.
    ///   - savepoints: The storage side of savepoints.
    ///   - readTracking: What the backend tells of a fetch's reads, if anything.
    ///   - tracer: What hears the life of every transaction, if anything.
    package init(
        databaseName: String, connectionType: Any.Type?, keyValueStorage: (any KeyValueStorage)? = nil,
        savepoints: any SavepointStorage,
        readTracking: (any ReadTracking)? = nil, tracer: (any TransactionTracer)? = nil
    ) {
        self.tracer = tracer
        self.readTracking = readTracking
        self.databaseName = databaseName
        self.connectionType = connectionType
        self.keyValueStorage = keyValueStorage
        self.savepoints = savepoints
    }

    // MARK: - Async completions

    package var pendingAsyncCompletionCount: Int {
        pendingAsyncCompletions.load(ordering: .acquiring)
    }

    /// Called before an async completion is handed to its queue or executor.
    package func asyncCompletionWillStart() {
        asyncCompletionGroup.enter()
        pendingAsyncCompletions.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    /// Called once an async completion has run.
    package func asyncCompletionDidFinish() {
        pendingAsyncCompletions.wrappingAdd(-1, ordering: .acquiringAndReleasing)
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
