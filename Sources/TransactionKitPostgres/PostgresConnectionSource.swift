#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// Where a ``PostgresDB``'s transactions get their connections: a
/// postgres-nio `PostgresClient` (its pool), run by a task of its own, with
/// three rules the pool alone does not keep.
///
/// - **Bounded wait:** a transaction waits at most
///   ``PostgresDB/Configuration/connectTimeout`` for a connection (the pool
///   alone waits until its circuit breaker trips, about a minute, whatever
///   the connect timeout). A cancelled task stops waiting at once.
/// - **Known cause:** when the wait times out, one direct connection
///   attempt (at most 0.8 s more) finds out why: refused credentials,
///   an unreachable address, or a server that answers again.
/// - **No stale backoff:** after a wait timed out, the pool has been
///   retrying with growing pauses (up to a minute). So the next transaction
///   first tries one direct connection: while it fails, the transaction
///   fails at once with its cause; once it succeeds, the pool is replaced
///   by a fresh one, which connects at once, and the old one is shut down.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class PostgresConnectionSource: Sendable {
    private struct Pool: Sendable {
        let client: PostgresClient
        let task: Task<Void, Never>
    }

    private struct State: Sendable {
        var pool: Pool
        /// A wait timed out since the last connection the pool handed out.
        var suspectsOutage = false
        /// Pools replaced after an outage, shut down by ``shutDown()``.
        var retired: [Pool] = []
    }

    private let configuration: PostgresDB.Configuration
    private let logger: Logger
    private let path: String
    private let state: LockedValue<State>

    /// The longest the cause of a timed-out wait is looked for: short
    /// enough that a transaction that found no connection fails within
    /// the connect timeout plus one second.
    static let diagnosisLimit: Duration = .milliseconds(800)

    init(configuration: PostgresDB.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.path = configuration.displayAddress
        self.state = LockedValue(State(pool: Self.start(configuration, logger)))
    }

    private static func start(_ configuration: PostgresDB.Configuration, _ logger: Logger) -> Pool {
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        return Pool(client: client, task: Task { await client.run() })
    }

    /// Runs `body` on a connection of the pool.
    ///
    /// - Throws: ``/TransactionKit/DBError`` of kind `connectionFailed` when
    ///   no connection came within the connect timeout (naming the cause
    ///   and the time waited); `CancellationError` when the task was
    ///   cancelled while waiting; what `body` throws.
    func withConnection<R: Sendable>(
        during operation: DBError.Operation,
        _ body: @Sendable (PostgresConnection) async throws -> R
    ) async throws -> R {
        if state.withLock({ $0.suspectsOutage }) {
            try await recover(during: operation)
        }
        let client = state.withLock { $0.pool.client }
        let timeout = configuration.connectTimeout
        let started = ContinuousClock.now
        let lease = PostgresLease()
        let value: R? = try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: R?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        guard lease.begin() else { throw CancellationError() }
                        return try await body(connection)
                    }
                }
                group.addTask {
                    do {
                        try await Task.sleep(for: timeout)
                    } catch {
                        // Cancelled while no connection came: stop waiting
                        // now. Once the transaction has its connection, its
                        // own outcome is the caller's (rolled back, or
                        // committed when the cancellation came too late).
                        if lease.expire() { throw error }
                        return nil
                    }
                    _ = lease.expire()
                    return nil
                }
                defer { group.cancelAll() }
                // The transaction's value or error decides, or the timer
                // when it expired the lease before any connection came.
                // The timer's end after a connection came decides nothing.
                while true {
                    let result: R??
                    do {
                        result = try await group.next()
                    } catch {
                        // A connection that came after the timer expired
                        // the lease is refused (CancellationError): the
                        // timer decides, unless the task was cancelled.
                        if lease.isExpired, !Task.isCancelled { return nil }
                        throw error
                    }
                    guard let result else { break }
                    if let value = result { return value }
                    if lease.isExpired { return nil }
                }
                preconditionFailure("TransactionKit internal error: a PostgreSQL transaction ended with no outcome")
            }
        }
        if let value {
            state.withLock { $0.suspectsOutage = false }
            return value
        }
        state.withLock { $0.suspectsOutage = true }
        throw await diagnose(waited: ContinuousClock.now - started, during: operation)
    }

    /// Stops every pool without waiting (the database is deallocated).
    func cancel() {
        for pool in state.withLock({ [$0.pool] + $0.retired }) {
            pool.task.cancel()
        }
    }

    /// Shuts every pool down, once no transaction runs.
    func shutDown() async {
        let pools = state.withLock { [$0.pool] + $0.retired }
        for pool in pools {
            pool.task.cancel()
        }
        for pool in pools {
            await pool.task.value
        }
    }

    // MARK: - Outages

    /// After a timed-out wait: one direct connection attempt. It fails:
    /// throw its cause. It succeeds: the server is back; start a fresh pool.
    private func recover(during operation: DBError.Operation) async throws {
        let started = ContinuousClock.now
        if let failure = await probe(limit: configuration.connectTimeout) {
            throw failure.error(waited: ContinuousClock.now - started, operation: operation, path: path, configuration: configuration)
        }
        let fresh = Self.start(configuration, logger)
        state.withLock { state in
            guard state.suspectsOutage else {
                // Another transaction renewed the pool meanwhile.
                fresh.task.cancel()
                return
            }
            state.retired.append(state.pool)
            state.pool = fresh
            state.suspectsOutage = false
        }
        // The replaced pool lets its transactions finish, then stops.
        let retired = state.withLock { $0.retired.last }
        retired?.task.cancel()
    }

    /// The error of a wait that timed out, with its cause when one direct
    /// connection attempt finds it within ``diagnosisLimit``.
    private func diagnose(waited: Duration, during operation: DBError.Operation) async -> DBError {
        let limit = min(Self.diagnosisLimit, configuration.connectTimeout)
        let failure = await probe(limit: limit) ?? .noConnectionFromPool
        return failure.error(waited: waited, operation: operation, path: path, configuration: configuration)
    }

    /// One connection, opened and closed at once: `nil` when it opened.
    private func probe(limit: Duration) async -> PostgresConnectFailure? {
        var configuration = configuration
        configuration.connectTimeout = limit
        do {
            try await PostgresErrors.checkConnection(configuration, logger: logger)
            return nil
        } catch is CancellationError {
            return .cancelled
        } catch {
            return PostgresConnectFailure(error)
        }
    }
}
#endif
