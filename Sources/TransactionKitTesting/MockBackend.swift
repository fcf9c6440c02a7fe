import Synchronization
import TransactionKit

/// The storage side of ``MockDB``: no storage, just counters, a write lock
/// and injected faults.
struct MockBackend: TransactionBackend {
    struct State {
        var statistics = MockDB.Statistics()
        var nextCommitFailure: DBError?
    }

    let label: String
    let state = SharedState()
    var isMock: Bool { true }

    /// Reference storage so that the struct stays cheap to copy.
    final class SharedState: Sendable {
        let mutex = Mutex(State())
        /// Serializes write transactions, as SQLite does.
        let writeLock = Mutex(())

        func withLock<R>(_ body: (inout State) -> R) -> R {
            mutex.withLock { body(&$0) }
        }
    }

    func performRead<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try readNow(body)
    }

    func performWrite<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try writeNow(body)
    }

    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try readNow(body)
    }

    func performWrite<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try writeNow(body)
    }

    private func readNow<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        state.withLock { $0.statistics.reads += 1 }
        return try body(nil)
    }

    private func writeNow<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try state.writeLock.withLock { _ in
            state.withLock { $0.statistics.writes += 1 }
            let value: R
            do {
                value = try body(nil)
            } catch {
                state.withLock { $0.statistics.rollbacks += 1 }
                throw error
            }
            let failure = state.withLock { state -> DBError? in
                defer { state.nextCommitFailure = nil }
                if state.nextCommitFailure != nil {
                    state.statistics.rollbacks += 1
                } else {
                    state.statistics.commits += 1
                }
                return state.nextCommitFailure
            }
            if let failure { throw failure }
            return value
        }
    }

    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error {
        error
    }

    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error {
        error
    }
}
