#if Postgres
import Logging
import PostgresNIO
import TransactionKit

/// An ordered list of schema migrations for a ``PostgresDB``, each applied
/// once, recorded in the table `txkit_migrations`.
///
/// ```swift
/// var migrator = PostgresMigrator()
/// migrator.registerMigration("createMessage") { connection, logger in
///     try await connection.query("""
///         CREATE TABLE message (id BIGSERIAL PRIMARY KEY, sender TEXT NOT NULL, body TEXT NOT NULL)
///         """, logger: logger)
/// }
/// try await migrator.migrate(db)
/// ```
///
/// **Several instances at once:** `migrate` holds a PostgreSQL advisory
/// lock (a session lock on one key, ``advisoryLockKey``) from its first
/// read of the table to its last migration, so that instances of a service
/// that start together apply each migration once: the first migrates, the
/// others wait, then find nothing left to do.
///
/// **Transactions:** each migration runs in its own transaction with its
/// row in `txkit_migrations`; when one throws, it is rolled back, the ones
/// before it stay applied, and `migrate` throws.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct PostgresMigrator: Sendable {
    /// One migration: its identifier and its work.
    private struct Migration: Sendable {
        let identifier: String
        let migrate: @Sendable (PostgresConnection, Logger) async throws -> Void
    }

    private var migrations: [Migration] = []

    /// The advisory lock key `migrate` holds ("txkit_mg" in ASCII). Keep
    /// your own advisory locks off it.
    public static let advisoryLockKey: Int64 = 0x7478_6B69_745F_6D67

    /// Creates a migrator without migrations.
    public init() {}

    /// The registered identifiers, in order.
    public var identifiers: [String] { migrations.map(\.identifier) }

    /// Appends a migration. Never change or remove one that has shipped;
    /// add a new one.
    ///
    /// - Parameters:
    ///   - identifier: A name unique in this migrator.
    ///   - migrate: The work, given the connection (inside the migration's
    ///     transaction) and a logger for its queries.
    /// - Precondition: `identifier` was not registered before.
    public mutating func registerMigration(
        _ identifier: String,
        migrate: @escaping @Sendable (PostgresConnection, Logger) async throws -> Void
    ) {
        precondition(
            !migrations.contains { $0.identifier == identifier },
            "PostgresMigrator: the migration \"\(identifier)\" is registered twice")
        migrations.append(Migration(identifier: identifier, migrate: migrate))
    }

    /// Applies the migrations the database has not applied yet, in order.
    ///
    /// - Parameter db: The database to migrate.
    /// - Returns: The identifiers this call applied (empty when another
    ///   instance, or an earlier run, applied them all).
    /// - Throws: ``/TransactionKit/DBError`` of kind `migrationFailed`
    ///   (operation `migrate`) naming the migration that failed, or the
    ///   migration the database has applied and this migrator does not
    ///   know; `connectionFailed` when the server cannot be reached.
    @discardableResult
    public func migrate(_ db: PostgresDB) async throws -> [String] {
        let logger = db.logger
        let path = db.path
        do {
            return try await db.connections.withConnection(during: .migrate) { connection in
                try await connection.queryUnlessClosed("SELECT pg_advisory_lock(\(Self.advisoryLockKey))", logger: logger)
                do {
                    let applied = try await applyPending(connection, logger: logger, path: path)
                    do {
                        try await connection.queryUnlessClosed(
                            "SELECT pg_advisory_unlock(\(Self.advisoryLockKey))", logger: logger)
                    } catch {
                        // Every migration committed on its own. Closing the
                        // connection ends the session, and its lock (a
                        // closed one already has).
                        try? await connection.close()
                    }
                    return applied
                } catch {
                    // Closing the connection ends the session, and its lock.
                    try? await connection.close()
                    throw error
                }
            }
        } catch let error as DBError {
            throw error
        } catch {
            throw PostgresErrors.map(error, during: .migrate, path: path)
        }
    }

    /// The identifiers the database has applied, in order (creating the
    /// table `txkit_migrations` when it is missing).
    ///
    /// - Parameter db: The database to look at.
    /// - Returns: The identifiers recorded in `txkit_migrations`, in the
    ///   order they were registered; migrations this migrator does not know
    ///   included.
    /// - Throws: ``/TransactionKit/DBError`` (operation `migrate`), of kind
    ///   `connectionFailed` when the server cannot be reached.
    public func appliedMigrations(_ db: PostgresDB) async throws -> [String] {
        do {
            return try await db.connections.withConnection(during: .migrate) { connection in
                try await Self.createTable(connection, logger: db.logger)
                return try await Self.applied(connection, logger: db.logger)
            }
        } catch {
            throw PostgresErrors.map(error, during: .migrate, path: db.path)
        }
    }

    private func applyPending(_ connection: PostgresConnection, logger: Logger, path: String) async throws -> [String] {
        try await Self.createTable(connection, logger: logger)
        let applied = try await Self.applied(connection, logger: logger)
        if let unknown = applied.first(where: { id in !migrations.contains { $0.identifier == id } }) {
            throw DBError(
                kind: .migrationFailed, operation: .migrate, path: path,
                message: "the database has applied the migration \"\(unknown)\", which this migrator does not know "
                    + "(a newer version of the service migrated it)")
        }
        var appliedNow: [String] = []
        for (position, migration) in migrations.enumerated() where !applied.contains(migration.identifier) {
            try await connection.queryUnlessClosed("BEGIN", logger: logger)
            do {
                try await migration.migrate(connection, logger)
                try await connection.queryUnlessClosed(
                    "INSERT INTO txkit_migrations (identifier, position) VALUES (\(migration.identifier), \(position))",
                    logger: logger)
                _ = try await connection.resultUnlessClosed("COMMIT", logger: logger).get()
            } catch {
                _ = try? await connection.queryUnlessClosed("ROLLBACK", logger: logger)
                let cause = PostgresErrors.map(error, during: .migrate, path: path)
                var failure = DBError(
                    kind: .migrationFailed, operation: .migrate, path: path,
                    message: "the migration \"\(migration.identifier)\" failed: \(Self.summary(of: cause))",
                    underlyingError: error)
                failure.sqlState = (cause as? DBError)?.sqlState
                throw failure
            }
            appliedNow.append(migration.identifier)
        }
        return appliedNow
    }

    private static func createTable(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.queryUnlessClosed(
            """
            CREATE TABLE IF NOT EXISTS txkit_migrations (
                identifier TEXT PRIMARY KEY,
                position INTEGER NOT NULL,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            logger: logger)
    }

    private static func applied(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        let rows = try await connection.queryUnlessClosed(
            "SELECT identifier FROM txkit_migrations ORDER BY position", logger: logger)
        var identifiers: [String] = []
        for try await identifier in rows.decode(String.self) {
            identifiers.append(identifier)
        }
        return identifiers
    }

    private static func summary(of error: any Error) -> String {
        switch error {
        case let error as DBError: error.message
        case let error as DBConstraintViolation: error.description
        default: String(describing: error)
        }
    }
}
#endif
