import Foundation

/// One iterator of a ``DBValueObservation``: hears the database's commits,
/// and fetches when asked for the next value after one that matters.
final class ObservationCore<Value: Sendable>: Sendable {
    private struct State {
        var reads: ObservedReads?
        var isFetching = false
        /// A commit that may change the value happened since the last
        /// fetch began.
        var isDirty = false
        /// The commits during a fetch, matched once the fetch says what it read.
        var changesDuringFetch = DBChanges()
        var waiter: CheckedContinuation<Void, Never>?
        var isEnded = false
        var last: Value?
        var hasWarned = false
    }

    private let observation: DBValueObservation<Value>
    private let state = LockedValue(State())
    private let registration = LockedValue<Int?>(nil)

    init(observation: DBValueObservation<Value>) {
        self.observation = observation
        let id = observation.scope.commitObservers.add(
            tables: [], collections: [], all: true,
            finish: { [weak self] in self?.end() },
            deliver: { [weak self] changes in self?.commitDidHappen(changes) })
        registration.withLock { $0 = id }
    }

    deinit {
        if let id = registration.withLock({ $0 }) {
            observation.scope.commitObservers.remove(id)
        }
    }

    /// Called by the committing write, under its serialization: marks the
    /// value stale and wakes the waiting `next()`. Runs no fetch.
    private func commitDidHappen(_ changes: DBChanges) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.isFetching {
                state.changesDuringFetch.formUnion(changes)
                return nil
            }
            guard let reads = state.reads, reads.matches(changes) else { return nil }
            state.isDirty = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    private func end() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isEnded = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    var isStale: Bool {
        state.withLock { $0.isDirty }
    }

    func next() async throws -> Value? {
        if state.withLock({ $0.isEnded }) || Task.isCancelled { return nil }
        if state.withLock({ $0.reads == nil }) {
            return try await fetch()
        }
        while true {
            guard await waitForChange() else { return nil }
            if let value = try await fetch() {
                return value
            }
        }
    }

    /// Waits until a commit that matters happened; `false` when the
    /// sequence ended or the task was cancelled.
    private func waitForChange() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isDirty || state.isEnded || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            end()
        }
        return state.withLock { !$0.isEnded && $0.isDirty } && !Task.isCancelled
    }

    /// Fetches once; returns the value, or `nil` when it equals the last
    /// one delivered.
    private func fetch() async throws -> Value? {
        state.withLock { state in
            state.isFetching = true
            state.isDirty = false
            state.changesDuringFetch = DBChanges()
        }
        let value: Value
        let recorded: ObservedReads?
        do {
            (value, recorded) = try await observation.fetch(observation.tracking == nil)
        } catch {
            end()
            throw error
        }
        let reads = observation.tracking.map(ObservedReads.init(tracking:)) ?? recorded ?? ObservedReads(tracking: DBRegion())
        let (isNew, warn) = state.withLock { state -> (Bool, Bool) in
            state.isFetching = false
            state.reads = reads
            if reads.matches(state.changesDuringFetch) {
                state.isDirty = true
            }
            let warn = reads.everyCommit && !state.hasWarned
            state.hasWarned = state.hasWarned || reads.everyCommit
            if let last = state.last, let isEqual = observation.isEqual, isEqual(last, value) {
                return (false, warn)
            }
            state.last = value
            return (true, warn)
        }
        if warn {
            let callSite = observation.callSite
            FileHandle.standardError.write(Data((
                "TransactionKit: the observation at \(callSite.file):\(callSite.line) read no table or key-value "
                    + "collection that can be tracked; it fetches again after every commit (declare reads with "
                    + "declareRead(table:), or pass tracking:)\n").utf8))
        }
        return isNew ? value : nil
    }
}

extension DBChanges {
    fileprivate mutating func formUnion(_ other: DBChanges) {
        tables.formUnion(other.tables)
        keyValueCollections.formUnion(other.keyValueCollections)
    }
}
