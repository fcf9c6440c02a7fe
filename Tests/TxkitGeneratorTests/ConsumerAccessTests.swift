#if Txkit
import Testing
import TxkitGenerator

/// How `txkit inventory` says each consumer reaches the database: the
/// transactions it opens (on GRDB or on the app's holder), the methods
/// that receive a legacy transaction, and GRDB's names in its code.
@Suite("Consumer access")
struct ConsumerAccessTests {
    static let sources = """
        import GRDB
        final class AppDatabase {
            let dbQueue: DatabaseQueue
            init(_ dbQueue: DatabaseQueue) { self.dbQueue = dbQueue }
            func write<T>(_ updates: (Database) throws -> T) throws -> T { try dbQueue.write(updates) }
            func reader<T>(_ value: (Database) throws -> T) throws -> T { try dbQueue.read(value) }
        }
        final class Cache {
            func write(_ body: () -> Void) { body() }
            func reader(_ body: () -> Void) { body() }
        }
        final class Notes {
            let appDatabase: AppDatabase
            let dbQueue: DatabaseQueue
            let cache = Cache()
            init(appDatabase: AppDatabase, dbQueue: DatabaseQueue) {
                self.appDatabase = appDatabase
                self.dbQueue = dbQueue
            }
            func save() throws {
                try appDatabase.write { db in try db.execute(sql: "DELETE FROM note") }
                _ = try appDatabase.reader { db in try Int.fetchOne(db, sql: "SELECT 1") }
                _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 2") }
                cache.write { }
                cache.reader { }
                _ = [1, 2].map { $0 + 1 }
            }
            func count(_ db: Database) throws -> Int { 0 }
        }
        final class Plain {
            func run() -> [Int] { [1, 2].map { $0 * 2 } }
        }
        final class Migrated {
            func run(_ tx: DBReadTransaction) {}
        }
        """

    /// Calls on GRDB's queue and on the app's holder open transactions;
    /// calls of the same names on another type (`cache.write { }`,
    /// `cache.reader { }`) and other closures do not.
    @Test func transactionsOnGRDBAndOnTheHolderCountAndCallsOfTheSameNameElsewhereDoNot() throws {
        let inventory = try InlineTree([("App.swift", Self.sources)]).generator.inventory()
        let notes = try #require(inventory.consumers.first { $0.consumer == "Notes" })
        #expect(notes.state == .legacy)
        #expect(notes.blocks == 3)
        #expect(notes.legacyParameters == 1)
        #expect(notes.bridges == 0)
    }

    /// The holder opens the app's transactions for others: no consumer.
    /// A type that touches no database is not listed; one that takes
    /// TransactionKit's transactions only is migrated.
    @Test func theHolderAndTypesWithoutDataAccessAreNoLegacyConsumers() throws {
        let inventory = try InlineTree([("App.swift", Self.sources)]).generator.inventory()
        let states = Dictionary(uniqueKeysWithValues: inventory.consumers.map { ($0.consumer, $0.state) })
        #expect(states["AppDatabase"] == nil)
        #expect(states["Cache"] == nil)
        #expect(states["Plain"] == nil)
        #expect(states["Migrated"] == .migrated)
    }
}
#endif
