#if Postgres
import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// A migrated PostgreSQL database from which each test gets a fresh copy:
/// the server clones it (`CREATE DATABASE … TEMPLATE`) instead of running
/// the migrations again.
///
/// ```swift
/// enum TestDatabases {
///     static let app = PostgresTemplate { db in try await AppSchema.migrator.migrate(db) }
/// }
///
/// @Test(.freshDatabase(TestDatabases.app))
/// func sendingStoresTheMessage() async throws {
///     let db = try FreshPostgresDatabase.current
///     …
/// }
/// ```
///
/// **The template** is created and migrated once per process, the first
/// time a test asks for a database, on the server of ``serverURL`` (by
/// default `TXKIT_POSTGRES_URL`, which `Scripts/with-postgres.sh` exports),
/// under a name of its own; then nobody connects to it, as PostgreSQL
/// requires of a template. Each copy is a new database with a unique name,
/// closed when its test ends and dropped by a background worker
/// (``withDatabase(_:)``, the trait, the XCTest helper). A throwaway server
/// is discarded with its templates; on a server that lives on, call
/// ``dropTemplate()`` when the tests are done: it waits for the drops and
/// drops the spares, which a process that just exits leaves behind.
///
/// **Copies made ahead:** a copy costs the server a `CREATE DATABASE …
/// TEMPLATE` and a `DROP DATABASE`, whatever the number of migrations
/// (about half of creating and migrating a 20-table database on
/// PostgreSQL 15), and opening and closing it costs a few milliseconds
/// more. So a background worker keeps ``spares`` copies made and opened,
/// and closes and drops the used ones while the tests run: a test that
/// finds a spare waits for none of it. Tests that each take less time
/// than the worker needs for a copy (tens of milliseconds) drain the
/// spares and then wait for the worker. See Benchmarks/README.md (`fresh_pg_db`).
///
/// - Warning: The role of the URL must be allowed to create databases
///   (`CREATEDB`).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class PostgresTemplate: Sendable {
    /// The environment variable that names the server by default.
    public static let environmentVariable = "TXKIT_POSTGRES_URL"

    /// `TXKIT_POSTGRES_URL`, or `nil` when it is unset or empty: the
    /// condition of a suite's `.enabled(if: PostgresTemplate.isAvailable)`.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether ``serverURL`` names a server.
    public static var isAvailable: Bool { serverURL != nil }

    /// The server's URL, or `nil` for ``serverURL`` (read when the
    /// template is first needed).
    private let url: String?
    /// The name of the template database.
    public let templateName: String

    /// How many copies the template keeps ready ahead of the tests.
    public var spares: Int { copies.spares }

    private let migrate: @Sendable (PostgresDB) async throws -> Void
    private let logger: Logger
    private let preparation = LockedTemplateTask()
    private let copies: PostgresTemplateCopies

    /// A template migrated by `migrate`.
    ///
    /// - Parameters:
    ///   - serverURL: The server, as a `postgresql://` URL whose role may
    ///     create databases; ``serverURL`` when `nil`.
    ///   - logger: The logger of the databases it opens; quiet by default.
    ///   - spares: How many copies a background worker keeps ready once
    ///     the first is asked for; 0 makes each copy when a test asks.
    ///     Each spare is a database on the server until it is used, or
    ///     until ``dropTemplate()``.
    ///   - migrate: Brings a new, empty database to the schema the tests
    ///     need (run the app's migrator; insert fixtures if every test
    ///     wants them). Runs once per process.
    ///
    /// Nothing connects yet: a template declared in a `static let` costs
    /// nothing in a run without a server.
    public init(
        serverURL: String? = nil,
        logger: Logger = PostgresTemplate.quietLogger,
        spares: Int = 2,
        migrate: @escaping @Sendable (PostgresDB) async throws -> Void
    ) {
        let templateName = Self.uniqueName("txkit_template")
        self.url = serverURL
        self.templateName = templateName
        self.logger = logger
        self.migrate = migrate
        self.copies = PostgresTemplateCopies(
            spares: spares,
            create: {
                let name = Self.uniqueName("txkit_test")
                try await Self.administer(
                    "CREATE DATABASE \(Self.quoted(name)) TEMPLATE \(Self.quoted(templateName))",
                    url: serverURL, logger: logger)
                var configuration = try Self.server(url: serverURL)
                configuration.database = name
                do {
                    return try await PostgresDB.open(configuration, logger: logger)
                } catch {
                    try? await Self.administer(
                        "DROP DATABASE IF EXISTS \(Self.quoted(name)) WITH (FORCE)", url: serverURL, logger: logger)
                    throw error
                }
            },
            drop: { db in
                await db.close()
                try? await Self.administer(
                    "DROP DATABASE IF EXISTS \(Self.quoted(db.configuration.database)) WITH (FORCE)",
                    url: serverURL, logger: logger)
            })
    }

    /// A logger that reports only critical problems.
    public static var quietLogger: Logger {
        var logger = Logger(label: "TransactionKitPostgresTesting")
        logger.logLevel = .critical
        return logger
    }

    /// Creates and migrates the template, if this process has not yet.
    /// ``makeDatabase()`` calls it; call it first to keep its cost out of
    /// a timed test.
    ///
    /// - Throws: What creating the database or `migrate` throws; the next
    ///   call tries again.
    public func prepare() async throws {
        try await preparation.run { [self] in
            try await administer("CREATE DATABASE \(Self.quoted(templateName))")
            var configuration = try server()
            configuration.database = templateName
            let db = try await PostgresDB.open(configuration, logger: logger)
            do {
                try await migrate(db)
            } catch {
                await db.close()
                try? await administer("DROP DATABASE IF EXISTS \(Self.quoted(templateName)) WITH (FORCE)")
                throw error
            }
            // A template must have no connection while it is copied.
            await db.close()
        }
    }

    /// Waits until ``spares`` copies are ready and every copy handed back
    /// to ``drop(_:)`` is dropped: call it before a timed test, so that it
    /// measures its own work only.
    ///
    /// - Throws: What creating the template throws.
    public func waitForSpares() async throws {
        try await prepare()
        try await copies.fill()
    }

    /// The names of the copies ready now, not yet handed to a test.
    package func spareNames() async -> [String] {
        await copies.readyNames
    }

    /// How many copies this template has made, spares included.
    package func copiesMade() async -> Int {
        await copies.made
    }

    /// A new database, copied from the template, opened: a spare when one
    /// is ready, else a copy made now.
    ///
    /// - Returns: The database; hand it to ``drop(_:)`` when done.
    /// - Throws: ``/TransactionKit/DBError`` when the server refuses.
    public func makeDatabase() async throws -> PostgresDB {
        try await prepare()
        return try await copies.take()
    }

    /// Hands `db`, a copy ``makeDatabase()`` made, to the background worker,
    /// which closes it and drops it.
    ///
    /// Do not use `db` once this returns: the worker closes it, then runs
    /// the `DROP DATABASE` (which ends any connection left), beside the
    /// next tests. ``dropTemplate()`` waits for it. A failed drop is not
    /// reported: the copy stays on the server until the server is
    /// discarded.
    ///
    /// - Throws: Nothing today; declared so that a later version may report
    ///   a refused drop without breaking callers.
    public func drop(_ db: PostgresDB) async throws {
        await copies.drop(db)
    }

    /// Runs `body` with a fresh copy, then drops the copy, whether `body`
    /// throws or not.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What making the copy or `body` throws.
    public func withDatabase<T>(_ body: (PostgresDB) async throws -> T) async throws -> T {
        let db = try await makeDatabase()
        let value: T
        do {
            value = try await body(db)
        } catch {
            try? await drop(db)
            throw error
        }
        try await drop(db)
        return value
    }

    /// Waits for the copies being dropped, drops the spares, then the
    /// template.
    public func dropTemplate() async throws {
        await copies.dropSpares()
        try await administer("DROP DATABASE IF EXISTS \(Self.quoted(templateName)) WITH (FORCE)")
    }

    // MARK: - Private

    /// The server's configuration; its database is the one the
    /// administrative statements run in.
    ///
    /// - Throws: ``/TransactionKit/DBError`` when no URL is given (nor
    ///   `TXKIT_POSTGRES_URL`) or it is not a PostgreSQL URL.
    private func server() throws -> PostgresDB.Configuration {
        try Self.server(url: url)
    }

    private static func server(url: String?) throws -> PostgresDB.Configuration {
        guard let url = url ?? serverURL else {
            throw DBError(
                kind: .cannotOpen, operation: .open, path: "\(Self.environmentVariable) (unset)",
                message: "no PostgreSQL server: set \(Self.environmentVariable), or run the tests through Scripts/with-postgres.sh")
        }
        return try PostgresDB.Configuration(url: url)
    }

    /// Runs one statement outside any transaction (`CREATE DATABASE` may
    /// not run in one), on a connection of its own to the server.
    private func administer(_ sql: String) async throws {
        try await Self.administer(sql, url: url, logger: logger)
    }

    private static func administer(_ sql: String, url: String?, logger: Logger) async throws {
        let configuration = try server(url: url)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try configuration.connectionConfiguration(), id: 1, logger: logger)
        } catch {
            throw DBError(
                kind: .connectionFailed, operation: .open, path: configuration.displayAddress,
                message: String(describing: error), underlyingError: error)
        }
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw DBError(
                kind: .other, operation: .open, path: configuration.displayAddress,
                message: "\(sql): \(String(reflecting: error))", underlyingError: error)
        }
        try await connection.close()
    }

    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Runs the template's preparation once, for every caller that awaits it;
/// after a failure, the next caller tries again.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class LockedTemplateTask: Sendable {
    private let task = LockedValue<Task<Void, any Error>?>(nil)

    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let current = task.withLock { task in
            if let task { return task }
            let new = Task { try await work() }
            task = new
            return new
        }
        do {
            try await current.value
        } catch {
            task.withLock { if $0 == current { $0 = nil } }
            throw error
        }
    }
}
#endif
