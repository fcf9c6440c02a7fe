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
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }

    private let state = LockedValue(State())

    /// Records `result` unless another came first; `true` when it won.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (won, waiter) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(with: result)
        return won
    }

    /// The winner, once there is one. Called at most once.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<T, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
#endif
