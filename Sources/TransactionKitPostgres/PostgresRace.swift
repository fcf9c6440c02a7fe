#if Postgres
import TransactionKit

/// The first of several outcomes that finish in any order (an operation's
/// result, a deadline, a closed connection): the first one recorded wins,
/// the later ones are dropped, and one waiter gets the winner.
///
/// ``PostgresDeadline`` and ``PostgresConnection/queryUnlessClosed(_:logger:file:line:)``
/// use it to return to their caller while an operation that ignores
/// cancellation is still running.
final class PostgresRace<T: Sendable>: Sendable {
    private enum State {
        /// No outcome yet; the caller of ``value()`` when it waits.
        case waiting(CheckedContinuation<T, any Error>?)
        /// The winner, not yet taken by ``value()``.
        case finished(Result<T, any Error>)
        /// The winner went to ``value()``: the race keeps no reference to
        /// it (a row sequence released unread is drained by postgres-nio).
        case handedOver
    }

    private let state = LockedValue(State.waiting(nil))

    /// Records `result` unless another came first; `true` when it won.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (won, waiter) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            guard case let .waiting(waiter) = state else { return (false, nil) }
            state = waiter == nil ? .finished(result) : .handedOver
            return (true, waiter)
        }
        waiter?.resume(with: result)
        return won
    }

    /// The winner, once there is one. Called at most once.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<T, any Error>? in
                guard case let .finished(result) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .handedOver
                return result
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
#endif
