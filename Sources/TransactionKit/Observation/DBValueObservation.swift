/// A value that a database keeps up to date: the result of a fetch, fetched
/// again after each commit that may change it, as an asynchronous sequence.
///
/// Create one with ``DB/observe(tracking:file:line:_:)-89o4y`` or
/// ``AsyncDB/observe(tracking:file:line:_:)-5nhll``:
///
/// ```swift
/// for try await count in db.observe({ tx in try messages.unreadCount(for: user, tx) }) {
///     badge.value = count
/// }
/// ```
///
/// **Which commits:** those that changed what the last fetch read: the
/// tables its statements read on `SQLiteDB`, the tables its mocks declare
/// with `declareRead(table:)` on `MockDB`, the ``KeyValueStore``
/// collections it read, or exactly the region given as `tracking:`. A fetch
/// of which nothing is known re-runs after every commit (said once on
/// standard error).
///
/// **When:** the first value is fetched when iteration starts. Afterwards a
/// fetch runs when the iterating task asks for the next value and a
/// matching commit happened since the last fetch began, in a read
/// transaction of its own, never inside the committing write. So after
/// `db.write` returns, `next()` fetches at once and returns the new value:
/// tests wait for nothing. Several commits before one `next()` cost one
/// fetch. With an `Equatable` value, a fetch that returns the value
/// already delivered is not delivered again.
///
/// **Errors and lifetime:** a fetch that throws ends the sequence with its
/// error. Cancelling the iterating task ends it (`next()` returns `nil`);
/// so does dropping the iterator. The sequence keeps its database alive.
/// Iterate it once per consumer: each iterator observes on its own.
public struct DBValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let scope: DatabaseScope
    let tracking: DBRegion?
    let callSite: CallSite
    let fetch: @Sendable (_ tracking: Bool) async throws -> (Value, ObservedReads?)
    let isEqual: (@Sendable (Value, Value) -> Bool)?

    /// Starts observing: the first `next()` fetches.
    public func makeAsyncIterator() -> Iterator {
        Iterator(core: ObservationCore(observation: self))
    }

    /// Fetches the value again after each commit that may change it.
    public struct Iterator: AsyncIteratorProtocol {
        let core: ObservationCore<Value>

        /// The next value: the first fetch's, then one after each commit
        /// that may change it.
        ///
        /// - Returns: The value, or `nil` once the task is cancelled.
        /// - Throws: The error of a fetch, which ends the sequence.
        public mutating func next() async throws -> Value? {
            try await core.next()
        }

        /// Whether a commit that may change the value happened since the
        /// last fetch began (the next `next()` fetches at once).
        package var isStale: Bool {
            core.isStale
        }
    }
}
