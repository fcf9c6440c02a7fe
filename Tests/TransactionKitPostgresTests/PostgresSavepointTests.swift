#if Postgres
import Foundation
import PostgresNIO
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport
import TransactionKitTesting

/// What savepoints add on PostgreSQL, where a failed statement aborts the
/// whole transaction: rolling back a savepoint makes it usable again.
@Suite("PostgresDB savepoints", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresSavepointTests {
    @Test func aFailedStatementInARolledBackSavepointLeavesTheTransactionUsable() async throws {
        let db = try await PostgresTestServer.open()
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")
        let sqlState = try await db.write { tx -> String? in
            try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
            var sqlState: String?
            do {
                try await tx.inSavepoint {
                    try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (2)", tx)
                    try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
                    return .commit
                }
            } catch let error as PSQLError {
                // The server's error, as every statement of a block throws it.
                sqlState = error.serverInfo?[.sqlState]
            }
            try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (3)", tx)
            return sqlState
        }
        #expect(sqlState == "23505", "a unique violation")
        let ids = try await db.read { tx in try await PostgresTestServer.integers("SELECT id FROM \(table)", tx) }
        #expect(ids == [1, 3], "the rows before and after the savepoint, not the one inside")
        await db.close()
    }

    /// Without a savepoint, the same caught error makes the commit fail:
    /// the reason savepoints exist on PostgreSQL.
    @Test func aCaughtFailureWithoutASavepointFailsTheCommit() async throws {
        let db = try await PostgresTestServer.open()
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")
        await #expect(throws: DBError.self) {
            try await db.write { tx in
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
                _ = try? await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
            }
        }
        let count = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM \(table)", tx) }
        #expect(count == 0)
        await db.close()
    }

    @Test func aSavepointRolledBackOnPurposeUndoesItsRows() async throws {
        let db = try await PostgresTestServer.open()
        let table = try await PostgresTestServer.makeTable(db, "id INT PRIMARY KEY")
        try await db.write { tx in
            try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (1)", tx)
            try await tx.inSavepoint {
                try await PostgresTestServer.execute("INSERT INTO \(table) VALUES (2)", tx)
                return .rollback
            }
            // The synchronous variant, from the async block.
            try tx.inSavepoint {
                try KeyValueStore(collection: "kv").setInt(1, key: "lost", transaction: tx)
                return .rollback
            }
        }
        let count = try await db.read { tx in try await PostgresTestServer.integer("SELECT count(*) FROM \(table)", tx) }
        #expect(count == 1)
        let lost = try await db.read { tx in try KeyValueStore(collection: "kv").getInt("lost", transaction: tx) }
        #expect(lost == nil)
        await db.close()
    }
}
#endif
