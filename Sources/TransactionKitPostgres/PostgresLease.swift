#if Postgres
import TransactionKit

/// Who wins between a connection and the connect timeout, for
/// ``PostgresConnectionSource``: the connection the pool hands out is used
/// only if the timeout did not expire first, and the other way round.
final class PostgresLease: Sendable {
    private enum Outcome { case waiting, leased, expired }
    private let outcome = LockedValue(Outcome.waiting)

    /// The pool handed out a connection: `true` when the transaction may
    /// use it, `false` when the wait already timed out.
    func begin() -> Bool {
        outcome.withLock { outcome in
            guard outcome == .waiting else { return false }
            outcome = .leased
            return true
        }
    }

    /// The timeout expired: `true` when no connection came before.
    func expire() -> Bool {
        outcome.withLock { outcome in
            guard outcome == .waiting else { return false }
            outcome = .expired
            return true
        }
    }

    /// Whether the timeout won.
    var isExpired: Bool {
        outcome.withLock { $0 == .expired }
    }
}
#endif
