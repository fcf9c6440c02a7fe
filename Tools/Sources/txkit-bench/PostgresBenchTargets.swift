import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// What the PostgreSQL entries run against: the server of
/// `TXKIT_POSTGRES_URL`, a plain postgres-nio `PostgresClient` (the
/// baseline) and two ``PostgresDB``s, each on a pool of its own of the same
/// size, and this run's tables.
///
/// The tables have names unique to the run (`txkit_bench_<random>_…`), are
/// created by ``open(url:)`` and dropped by ``close()``:
/// - `…_item (id BIGINT PRIMARY KEY, name TEXT, value BIGINT)`, rows
///   1…``pointRowCount`` whose value is id × 3, for point reads;
/// - `…_bulk_<variant>`, the same columns, one per variant of
///   `pg_insert_1k_one_tx`, emptied before each sample;
/// - `…_counter_<task> (id INT PRIMARY KEY, n BIGINT)`, one table of one
///   row per task of `pg_write_throughput`, each task updating its own: a
///   table per task, not a row per task, because `SERIALIZABLE` locks what
///   a transaction reads by index page, and updates of rows that share a
///   page fail as serialization conflicts (measured: more than 3 retries
///   in a row with 16 tasks on one 16-row table).
final class PostgresBenchTargets: Sendable {
    /// The environment variable that names the server.
    static let environmentKey = "TXKIT_POSTGRES_URL"
    /// Connections per pool, for the baseline and for each `PostgresDB`:
    /// enough for the most concurrent tasks of `pg_write_throughput`.
    static let poolSize = 16
    /// Rows in the point-read table.
    static let pointRowCount: Int64 = 1_000

    /// The logger of every query, baseline and `PostgresDB` alike (warnings
    /// and errors only).
    let logger: Logger
    /// The address, without the password, for the report.
    let address: String
    /// The baseline: postgres-nio's own pool, used with `withTransaction`.
    let client: PostgresClient
    private let clientTask: Task<Void, Never>
    /// A `PostgresDB` at `READ COMMITTED`, the level of the baseline's
    /// plain `BEGIN`.
    let readCommittedDB: PostgresDB
    /// A `PostgresDB` at its default level, `SERIALIZABLE`.
    let serializableDB: PostgresDB

    /// The prefix of this run's table names.
    let tablePrefix: String
    var itemTable: String { tablePrefix + "_item" }
    func counterTable(_ task: Int) -> String { tablePrefix + "_counter_\(task)" }
    private var counterTables: [String] { (1...Self.poolSize).map(counterTable) }
    func bulkTable(_ variant: String) -> String { tablePrefix + "_bulk_" + variant }

    /// The variants that get a bulk-insert table.
    static let bulkVariants = ["postgres_nio", "postgresdb", "postgresdb_serializable"]

    private init(configuration: PostgresDB.Configuration, logger: Logger) throws {
        self.logger = logger
        var readCommitted = configuration
        readCommitted.isolation = .readCommitted
        readCommitted.maximumConnections = Self.poolSize
        var serializable = configuration
        serializable.isolation = .serializable
        serializable.maximumConnections = Self.poolSize
        readCommittedDB = PostgresDB(configuration: readCommitted, logger: logger)
        serializableDB = PostgresDB(configuration: serializable, logger: logger)
        address = readCommittedDB.path
        let client = PostgresClient(configuration: try Self.baselineConfiguration(readCommitted), backgroundLogger: logger)
        self.client = client
        clientTask = Task { await client.run() }
        tablePrefix = "txkit_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
    }

    /// Connects to the server of `url` (checking it is reachable), and
    /// creates this run's tables.
    static func open(url: String) async throws -> PostgresBenchTargets {
        var logger = Logger(label: "txkit-bench.postgres")
        logger.logLevel = .warning
        let configuration = try PostgresDB.Configuration(url: url)
        // Fails right away, with a clear error, when the server is not there.
        let probe = try await PostgresDB.open(configuration, logger: logger)
        await probe.close()
        let targets = try PostgresBenchTargets(configuration: configuration, logger: logger)
        // The pools start running in tasks of their own; give those tasks
        // time to start, or the first lease logs that `run()` was not called
        // yet (it then waits, harmlessly, but the warning is noise).
        try await Task.sleep(for: .milliseconds(100))
        do {
            try await targets.createTables()
            try await targets.warmUp()
        } catch {
            await targets.close()
            throw error
        }
        return targets
    }

    /// Drops this run's tables, closes both `PostgresDB`s and stops the
    /// baseline's pool.
    func close() async {
        do {
            try await client.withConnection { connection in
                for table in [itemTable] + counterTables + Self.bulkVariants.map(bulkTable) {
                    try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table)"), logger: logger)
                }
            }
        } catch {
            print("warning: could not drop the benchmark tables \(tablePrefix)_*: \(String(reflecting: error))")
        }
        await readCommittedDB.close()
        await serializableDB.close()
        clientTask.cancel()
        await clientTask.value
    }

    /// Opens a connection in every pool, before the harness calibrates: the
    /// harness times one iteration first, and a first transaction that
    /// also connects (milliseconds) made it calibrate the cold pools to one
    /// transaction per sample, each sample then also paying the task
    /// hand-over of ``BlockingAwait`` (measured: `PostgresDB`'s empty writes
    /// ran one per sample, the warm baseline's about 25).
    private func warmUp() async throws {
        for _ in 0..<3 {
            try await client.withTransaction(logger: logger) { _ in }
            for db in [readCommittedDB, serializableDB] {
                try await db.write { _ in }
                try await db.read { _ in }
            }
        }
    }

    private func createTables() async throws {
        let columns = "(id BIGINT PRIMARY KEY, name TEXT NOT NULL, value BIGINT NOT NULL)"
        var statements = [
            "CREATE TABLE \(itemTable) \(columns)",
            """
            INSERT INTO \(itemTable) (id, name, value)
            SELECT i, 'item ' || i, i * 3 FROM generate_series(1, \(Self.pointRowCount)) AS i
            """,
        ]
        for table in counterTables {
            statements += ["CREATE TABLE \(table) (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)", "INSERT INTO \(table) VALUES (1, 0)"]
        }
        statements += Self.bulkVariants.map { "CREATE TABLE \(bulkTable($0)) \(columns)" }
        statements += ["ANALYZE \(itemTable)"]
        try await client.withConnection { connection in
            for statement in statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    /// The baseline pool's configuration: the same server, credentials,
    /// pool size and connect timeout as the `PostgresDB`s'.
    private static func baselineConfiguration(_ configuration: PostgresDB.Configuration) throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch configuration.tls {
        case .disable: tls = .disable
        case let .prefer(settings): tls = .prefer(settings)
        case let .require(settings): tls = .require(settings)
        }
        var client: PostgresClient.Configuration
        switch configuration.endpoint {
        case let .tcp(host, port):
            client = .init(
                host: host, port: port, username: configuration.username, password: configuration.password,
                database: configuration.database, tls: tls)
        case let .unixSocket(path):
            client = .init(
                unixSocketPath: path, username: configuration.username, password: configuration.password,
                database: configuration.database)
        }
        client.options.maximumConnections = configuration.maximumConnections
        client.options.connectTimeout = configuration.connectTimeout
        return client
    }
}
