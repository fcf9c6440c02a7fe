#if Postgres
import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The integers of ``AsyncIntStore`` in a table `(collection, key, value)`
/// of its own on PostgreSQL, through the bridge: the real finder the async
/// tests run against `MockDB`'s key-value store. Keys are ordered
/// `COLLATE "C"` (by bytes, as the key-value store orders them); the
/// server's default collation would order them by language rules, a
/// difference of this finder, not of the databases.
package struct PostgresIntStore: AsyncIntStore {
    package let table: String

    /// Creates the table, with a name no other test uses.
    package static func make(on db: PostgresDB) async throws -> PostgresIntStore {
        let table = PostgresTestServer.uniqueName("ints")
        try await db.write { tx in
            try await execute(
                "CREATE TABLE \(table) (collection TEXT NOT NULL, key TEXT NOT NULL, value BIGINT NOT NULL, "
                    + "PRIMARY KEY (collection, key))", [], tx)
        }
        return PostgresIntStore(table: table)
    }

    /// Empties the table.
    package func reset(on db: PostgresDB) async throws {
        try await db.write { tx in try await Self.execute("DELETE FROM \(table)", [], tx) }
    }

    package func getInt(_ key: String, in collection: String, transaction: DBReadTransaction) async throws -> Int? {
        let rows = try await Self.query(
            "SELECT value FROM \(table) WHERE collection = $1 AND key = $2", [collection, key], transaction)
        for try await value in rows.decode(Int.self) { return value }
        return nil
    }

    package func setInt(_ value: Int, key: String, in collection: String, transaction: DBWriteTransaction) async throws {
        var binds = PostgresBindings()
        binds.append(collection)
        binds.append(key)
        binds.append(value)
        try await PostgresDB.shimOnlyBridge(transaction).query(
            PostgresQuery(
                unsafeSQL: "INSERT INTO \(table) (collection, key, value) VALUES ($1, $2, $3) "
                    + "ON CONFLICT (collection, key) DO UPDATE SET value = EXCLUDED.value",
                binds: binds),
            logger: PostgresTestServer.logger)
    }

    package func removeValue(forKey key: String, in collection: String, transaction: DBWriteTransaction) async throws {
        try await Self.execute("DELETE FROM \(table) WHERE collection = $1 AND key = $2", [collection, key], transaction)
    }

    package func removeAll(in collection: String, transaction: DBWriteTransaction) async throws {
        try await Self.execute("DELETE FROM \(table) WHERE collection = $1", [collection], transaction)
    }

    package func allKeys(in collection: String, transaction: DBReadTransaction) async throws -> [String] {
        let rows = try await Self.query(
            "SELECT key FROM \(table) WHERE collection = $1 ORDER BY key COLLATE \"C\"", [collection], transaction)
        var keys: [String] = []
        for try await key in rows.decode(String.self) { keys.append(key) }
        return keys
    }

    package func count(in collection: String, transaction: DBReadTransaction) async throws -> Int {
        let rows = try await Self.query("SELECT count(*) FROM \(table) WHERE collection = $1", [collection], transaction)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    private static func query(_ sql: String, _ texts: [String], _ tx: DBReadTransaction) async throws -> PostgresRowSequence {
        var binds = PostgresBindings()
        for text in texts { binds.append(text) }
        return try await PostgresDB.shimOnlyBridge(tx).query(
            PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresTestServer.logger)
    }

    private static func execute(_ sql: String, _ texts: [String], _ tx: DBReadTransaction) async throws {
        _ = try await query(sql, texts, tx)
    }
}
#endif
