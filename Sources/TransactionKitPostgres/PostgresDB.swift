#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// A PostgreSQL database: an ``/TransactionKit/AsyncDB`` on postgres-nio's
/// connection pool, for services that outgrow one SQLite file.
///
/// ```swift
/// let db = try await PostgresDB.open(PostgresDB.Configuration(url: "postgresql://app@db.internal/app"))
/// let manager = InboxManager(db: db, messages: PostgresMessageFinder())
/// let message = try await manager.send(draft)
/// await db.close()
/// ```
///
/// Managers receive it as `any AsyncDB` and are unit-tested on `MockDB`,
/// which implements the same protocol; finders reach SQL through
/// ``shimOnlyBridge(_:file:line:)``.
///
/// **Transaction semantics:** those of every ``/TransactionKit/AsyncDB``,
/// each transaction on one pooled connection. Writes run side by side at
/// the configured ``IsolationLevel`` (``IsolationLevel/serializable`` by
/// default); PostgreSQL rolls back one that conflicts
/// (``/TransactionKit/DBError/Kind/conflict``), which
/// ``Configuration/conflictRetries`` runs again from the start, its hooks
/// registered anew. Reads run `READ ONLY`, on one snapshot.
///
/// **Tasks:** a `PostgresDB` is `Sendable`: share one per process. Blocks
/// run in the calling task; waiting for a connection or for the server
/// suspends, and never blocks a thread.
///
/// **Errors:** mapped from their SQLSTATE: constraint violations to
/// ``/TransactionKit/DBConstraintViolation``; a refused, rejected or lost
/// connection, or an unknown database, to
/// ``/TransactionKit/DBError/Kind/connectionFailed``, naming the host and
/// database, never the password. Errors of your own block pass through.
///
/// **Lifetime:** the database owns a `PostgresClient` and runs it until
/// ``close()``, which lets running transactions finish, refuses new ones,
/// and closes every connection.
///
/// **Key-value store:** ``/TransactionKit/KeyValueStore`` works as on
/// `SQLiteDB` and `MockDB`, in a table of this database
/// (``Configuration/keyValueTable``, created by ``open(_:logger:)``). Its
/// methods are synchronous: each call blocks its thread for one round trip
/// to the server (never a deadlock: the thread waits for postgres-nio's
/// event loop only).
///
/// **Platforms:** macOS 13, iOS 16, tvOS 16, watchOS 9 or later (and
/// Linux), as postgres-nio's `PostgresClient`, above the rest of the
/// package's floor.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class PostgresDB: AsyncDB, DatabaseScopeProviding, Sendable {
    /// How this database connects and runs transactions.
    public let configuration: Configuration

    /// The address and database, without the password, as errors name it:
    /// `postgresql://app@db.internal:5432/app`.
    public var path: String { configuration.displayAddress }

    /// The connection pool, with the connect timeout and recovery rules.
    let connections: PostgresConnectionSource
    let logger: Logger
    let engine: TransactionEngine<PostgresBackend>

    /// The engine's scope: commit observers and value observation.
    package var databaseScope: DatabaseScope { engine.scope }
    let lifecycle: PostgresLifecycle
    /// The threads transactions run on, from `BEGIN` to their end.
    let threads: PostgresTransactionThreads

    /// Creates the database and starts its connection pool, without
    /// connecting yet: the first transaction connects. Prefer
    /// ``open(_:logger:)``, which fails right away, with a clear error, when
    /// the server cannot be reached or refuses the credentials.
    ///
    /// - Parameters:
    ///   - configuration: The server, credentials and transaction options.
    ///   - logger: Where postgres-nio and this database log (connections
    ///     opened and lost, queries at trace level).
    public init(configuration: Configuration, logger: Logger = PostgresDB.defaultLogger) {
        self.configuration = configuration
        let connections = PostgresConnectionSource(configuration: configuration, logger: logger)
        self.connections = connections
        self.logger = logger
        let lifecycle = PostgresLifecycle(path: configuration.displayAddress)
        self.lifecycle = lifecycle
        let threads = PostgresTransactionThreads(idleLimit: configuration.maximumConnections)
        self.threads = threads
        let backend = PostgresBackend(
            connections: connections, logger: logger, path: configuration.displayAddress,
            beginWrite: configuration.isolation.beginWriteStatement,
            beginRead: configuration.isolation.beginReadStatement,
            lifecycle: lifecycle, threads: threads)
        self.engine = TransactionEngine(
            backend: backend,
            scope: DatabaseScope(
                databaseName: "PostgresDB", connectionType: PostgresTransactionConnection.self,
                keyValueStorage: PostgresKeyValueStorage(
                    table: configuration.keyValueTable, path: configuration.displayAddress, logger: logger),
                savepoints: PostgresSavepoints(path: configuration.displayAddress, logger: logger)))
    }

    /// Connects once to check the server, the credentials and the database,
    /// then returns a database whose pool is running.
    ///
    /// ```swift
    /// let db = try await PostgresDB.open(PostgresDB.Configuration(url: url))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The server, credentials and transaction options.
    ///   - logger: Where postgres-nio and this database log.
    /// - Throws: ``/TransactionKit/DBError`` of kind
    ///   ``/TransactionKit/DBError/Kind/connectionFailed`` (operation `open`)
    ///   naming the host and database when the server cannot be reached,
    ///   refuses the credentials, or has no such database.
    public static func open(_ configuration: Configuration, logger: Logger = PostgresDB.defaultLogger) async throws -> PostgresDB {
        try await open(configuration, logger: logger, connector: .direct)
    }

    /// ``open(_:logger:)``, its check made with `connector`: one call, and
    /// when it throws, `open` throws at once, before any pool exists.
    package static func open(
        _ configuration: Configuration, logger: Logger, connector: PostgresConnector
    ) async throws -> PostgresDB {
        try await PostgresErrors.checkConnection(configuration, logger: logger, connector: connector)
        let db = PostgresDB(configuration: configuration, logger: logger)
        do {
            try await db.prepareKeyValueTable()
        } catch {
            await db.close()
            throw error
        }
        return db
    }

    deinit {
        connections.cancel()
        threads.shutDown()
    }

    /// A logger that logs warnings and errors to standard error.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "TransactionKitPostgres")
        logger.logLevel = .warning
        return logger
    }

    // MARK: - AsyncDB

    /// Runs the async `block` in a read-only transaction on one snapshot.
    /// See ``/TransactionKit/AsyncDB/read(file:line:_:)``.
    ///
    /// A read that fails with a serialization conflict (possible at the
    /// serializable level) is run again, as a write is, up to
    /// ``Configuration/conflictRetries`` times.
    ///
    /// - Parameters:
    ///   - block: The work, given the transaction.
    ///   - file: The call site's file, for misuse messages.
    ///   - line: The call site's line, for misuse messages.
    /// - Throws: ``/TransactionKit/DBError`` (of kind
    ///   ``/TransactionKit/DBError/Kind/conflict`` when the retries are
    ///   spent), `CancellationError`, or whatever `block` throws.
    public func read<T: Sendable>(
        _ block: @Sendable (DBReadTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        let callSite = CallSite(file: file, line: line)
        return try await retryingConflicts {
            try await engine.read(at: callSite, asyncBlock: block)
        }
    }

    /// Runs the async `block` in a write transaction at the configured
    /// isolation level, and commits. See
    /// ``/TransactionKit/AsyncDB/write(file:line:_:)``.
    ///
    /// When PostgreSQL rolls the transaction back because it conflicts with
    /// a concurrent one, the whole transaction (block, finalizations,
    /// commit) runs again, up to ``Configuration/conflictRetries`` times,
    /// after a short random pause; then the conflict is thrown. Keep effects
    /// outside the database in completions, which run once, after the
    /// commit that succeeded.
    ///
    /// - Parameters:
    ///   - block: The work, given the transaction.
    ///   - file: The call site's file, for misuse messages.
    ///   - line: The call site's line, for misuse messages.
    /// - Throws: ``/TransactionKit/DBError`` (of kind
    ///   ``/TransactionKit/DBError/Kind/conflict`` when the retries are
    ///   spent), ``/TransactionKit/DBConstraintViolation``,
    ///   `CancellationError`, or whatever `block` throws.
    public func write<T: Sendable>(
        _ block: @Sendable (DBWriteTransaction) async throws -> T,
        file: StaticString,
        line: UInt
    ) async throws -> T {
        let callSite = CallSite(file: file, line: line)
        return try await retryingConflicts {
            try await engine.write(at: callSite, asyncBlock: block)
        }
    }

    /// Runs `attempt`, and again while it throws a conflict and retries are
    /// left.
    private func retryingConflicts<T>(_ attempt: () async throws -> T) async throws -> T {
        var retries = 0
        while true {
            do {
                return try await attempt()
            } catch let error as DBError where error.kind == .conflict && retries < configuration.conflictRetries {
                retries += 1
                // A random pause, growing with each retry, so that the
                // transactions that collided do not collide again.
                let bound = 500 << min(retries, 6)
                try await Task.sleep(for: .microseconds(Int.random(in: 0...bound)))
            }
        }
    }
}
#endif
