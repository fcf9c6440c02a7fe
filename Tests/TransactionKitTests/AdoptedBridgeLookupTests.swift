import Dispatch
import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Bridges from a connection alone (`SQLiteDB.readTransaction(bridging:)`,
/// the static form, for legacy code that holds GRDB's connection but not
/// the adopted database), and reads bridged on a queue's own connection.
@Suite("Adoption: bridging from a connection alone")
struct AdoptedBridgeLookupTests {
    static let backends = AdoptionBehaviourTests.backends

    /// On a queue, the application's read runs on the writer connection;
    /// bridged there, the transaction is a read whose end the adopted
    /// database sees, and the next transaction is not reported as nested.
    @Test(arguments: backends)
    func theTransactionAfterAReadBridgeInsideTheApplicationsReadIsNotNested(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        try app.db.write { tx in try SQLiteMessageFinder().insert("committed", into: "message", tx) }
        for _ in 0..<2 {
            let count = try app.pool.read { database in
                let tx = try app.db.readTransaction(bridging: database)
                return try app.store.getInt("a", transaction: tx) ?? Int.fetchOne(
                    SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM message")
            }
            #expect(count == 1)
            try app.db.write { tx in try app.store.setInt(3, key: "b", transaction: tx) }
            #expect(try app.kv("b") == 3)
            try app.pool.write { database in
                try SQLiteMessageFinder().insert("bridged", into: "message", app.db.writeTransaction(bridging: database))
            }
            try app.pool.write { database in try database.execute(sql: "DELETE FROM message WHERE text = 'bridged'") }
        }
        #expect(try app.count("message") == 1)
    }

    /// A manager that receives GRDB's connection from its callers and holds
    /// no adopted database bridges through the type: the bridge is the one
    /// the adopted database returns, in reads and in writes.
    @Test(arguments: backends)
    func theStaticBridgeFindsTheDatabaseThatAdoptedThePool(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        try app.pool.write { database in
            let tx = try SQLiteDB.writeTransaction(bridging: database)
            #expect(tx === (try app.db.writeTransaction(bridging: database)))
            try SQLiteMessageFinder().insert("legacy", into: "message", tx)
            try app.store.setInt(4, key: "a", transaction: tx)
        }
        let count = try app.pool.read { database in
            let tx = try SQLiteDB.readTransaction(bridging: database)
            return try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM message")
        }
        #expect(count == 1)
        #expect(try app.kv("a") == 4)
        try app.db.write { tx in try app.store.setInt(5, key: "a", transaction: tx) }
        #expect(try app.kv("a") == 5)
    }

    /// Without a live adopted database, the static bridge names the fix.
    @Test(arguments: backends)
    func theStaticBridgeWithoutAnAdoptedDatabaseIsAMisuse(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        try app.db.close()
        let other = try DatabaseQueue()
        let thrown = Locked<[String]>([])
        try withKnownIssue {
            try app.pool.write { database in
                do { _ = try SQLiteDB.writeTransaction(bridging: database) } catch { thrown.withValue { $0.append("\(error)") } }
            }
            try other.read { database in
                do { _ = try SQLiteDB.readTransaction(bridging: database) } catch { thrown.withValue { $0.append("\(error)") } }
            }
        } matching: { issue in
            AdoptionBehaviourTests.isMisuse("no open SQLiteDB adopted")(issue)
        }
        #expect(thrown.value.count == 2)
        #expect(thrown.value.allSatisfy { $0.contains("SQLiteDB(adopting:)") })
    }
}
