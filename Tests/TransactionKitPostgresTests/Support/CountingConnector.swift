#if Postgres
import TransactionKit
import TransactionKitPostgres

/// postgres-nio's direct connection (``PostgresConnector/direct``), counting
/// how many times `PostgresDB.open` called it.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class CountingConnector: Sendable {
    private let calls = LockedValue(0)

    /// How many connections were attempted so far.
    var attempts: Int { calls.withLock { $0 } }

    /// The connector to give `PostgresDB.open(_:logger:connector:)`.
    var connector: PostgresConnector {
        PostgresConnector { [calls] configuration, logger in
            calls.withLock { $0 += 1 }
            return try await PostgresConnector.direct.connect(configuration, logger)
        }
    }
}
#endif
