#if Postgres
import TransactionKit

/// Counts a ``PostgresDB``'s running transactions, so that
/// ``PostgresDB/close()`` refuses new ones and waits for the running ones.
final class PostgresLifecycle: Sendable {
    private struct State {
        var isClosed = false
        var running = 0
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let path: String
    private let state = LockedValue(State())

    init(path: String) {
        self.path = path
    }

    /// Registers a transaction about to begin.
    ///
    /// - Throws: ``/TransactionKit/DBError`` of kind `closed` after `close()`.
    func enter(_ operation: DBError.Operation) throws {
        let isClosed = state.withLock { state in
            if state.isClosed { return true }
            state.running += 1
            return false
        }
        if isClosed {
            throw DBError.closedDatabase(path: path, operation: operation)
        }
    }

    /// Unregisters a transaction that ended.
    func leave() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.running -= 1
            guard state.isClosed, state.running == 0 else { return [] }
            defer { state.closeWaiters = [] }
            return state.closeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses new transactions, then returns when the running ones ended.
    func closeAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isIdle = state.withLock { state in
                state.isClosed = true
                if state.running == 0 { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }
}
#endif
