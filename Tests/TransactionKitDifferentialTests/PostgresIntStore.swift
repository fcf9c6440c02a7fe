#if Postgres
import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// Integers in a table `(collection, key, value)` on PostgreSQL, through
/// the bridge: the real finder the async programs run against `MockDB`'s
/// key-value store. Keys are ordered `COLLATE "C"` (by bytes, as the store
/// orders them); the server's default collation would order them by
/// language rules, a difference of this finder, not of the databases.
struct PostgresIntStore: AsyncIntStoring {
    static let logger: Logger = {
        var logger = Logger(label: "TransactionKitDifferentialTests.Postgres")
        logger.logLevel = .critical
        return logger
    }()

    let table: String

    /// Creates the table, with a name no other test uses.
    static func make(on db: PostgresDB) async throws -> PostgresIntStore {
        let table = "diff_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await db.write { tx in
            try await execute(
                "CREATE TABLE \(table) (collection TEXT NOT NULL, key TEXT NOT NULL, value BIGINT NOT NULL, "
                    + "PRIMARY KEY (collection, key))", [], tx)
        }
        return PostgresIntStore(table: table)
    }

    /// Empties the table, between programs.
    func reset(on db: PostgresDB) async throws {
        try await db.write { tx in try await Self.execute("DELETE FROM \(table)", [], tx) }
    }

    func get(_ collection: String, _ key: String, _ tx: DBReadTransaction) async throws -> Int? {
        let rows = try await Self.query(
            "SELECT value FROM \(table) WHERE collection = $1 AND key = $2", [collection, key], tx)
        for try await value in rows.decode(Int.self) { return value }
        return nil
    }

    func set(_ value: Int, _ collection: String, _ key: String, _ tx: DBWriteTransaction) async throws {
        var binds = PostgresBindings()
        binds.append(collection)
        binds.append(key)
        binds.append(value)
        try await PostgresDB.shimOnlyBridge(tx).query(
            PostgresQuery(
                unsafeSQL: "INSERT INTO \(table) (collection, key, value) VALUES ($1, $2, $3) "
                    + "ON CONFLICT (collection, key) DO UPDATE SET value = EXCLUDED.value",
                binds: binds),
            logger: Self.logger)
    }

    func remove(_ collection: String, _ key: String, _ tx: DBWriteTransaction) async throws {
        try await Self.execute("DELETE FROM \(table) WHERE collection = $1 AND key = $2", [collection, key], tx)
    }

    func removeAll(_ collection: String, _ tx: DBWriteTransaction) async throws {
        try await Self.execute("DELETE FROM \(table) WHERE collection = $1", [collection], tx)
    }

    func keys(_ collection: String, _ tx: DBReadTransaction) async throws -> [String] {
        let rows = try await Self.query(
            "SELECT key FROM \(table) WHERE collection = $1 ORDER BY key COLLATE \"C\"", [collection], tx)
        var keys: [String] = []
        for try await key in rows.decode(String.self) { keys.append(key) }
        return keys
    }

    func count(_ collection: String, _ tx: DBReadTransaction) async throws -> Int {
        let rows = try await Self.query("SELECT count(*) FROM \(table) WHERE collection = $1", [collection], tx)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    private static func query(_ sql: String, _ texts: [String], _ tx: DBReadTransaction) async throws -> PostgresRowSequence {
        var binds = PostgresBindings()
        for text in texts { binds.append(text) }
        return try await PostgresDB.shimOnlyBridge(tx).query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    private static func execute(_ sql: String, _ texts: [String], _ tx: DBReadTransaction) async throws {
        _ = try await query(sql, texts, tx)
    }
}
#endif
