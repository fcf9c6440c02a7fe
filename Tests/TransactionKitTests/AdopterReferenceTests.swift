import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// `SQLiteDB.adopter(of:)`: the production wiring of a migrated manager
/// that receives the application's pool or queue, not the adopted database.
@Suite("Adoption: the adopter of a pool, found at the first transaction")
struct AdopterReferenceTests {
    static let backends = AdoptionBehaviourTests.backends

    @Test(arguments: backends)
    func transactionsRunOnTheDatabaseThatAdoptedThePool(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        let db = SQLiteDB.adopter(of: app.pool)
        try db.write { tx in
            try SQLiteMessageFinder().insert("through the adopter", into: "message", tx)
            try app.store.setInt(7, key: "a", transaction: tx)
            // The transaction is the adopting database's own.
            #expect(try app.pool.unsafeReentrantRead { $0 } === SQLiteDB.shimOnlyBridge(tx))
        }
        #expect(try app.count("message") == 1)
        #expect(try app.kv("a") == 7)
        #expect(try db.read { tx in try app.store.getInt("a", transaction: tx) } == 7)
    }

    @Test(arguments: backends)
    func asyncTransactionsRunOnTheAdopter(_ backend: Backend) async throws {
        let app = try AdoptionBehaviourTests.App(backend)
        let db = SQLiteDB.adopter(of: app.pool)
        let store = app.store
        try await db.write { tx in try store.setInt(8, key: "b", transaction: tx) }
        #expect(try await db.read { tx in try store.getInt("b", transaction: tx) } == 8)
    }

    /// A nested transaction through the adopter is the adopter's misuse,
    /// reported like any other.
    @Test(arguments: backends)
    func aTransactionInsideTheAdoptersWriteIsNested(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        let db = SQLiteDB.adopter(of: app.pool)
        withKnownIssue {
            _ = try? app.db.write { _ in try db.read { _ in } }
        } matching: { issue in
            AdoptionBehaviourTests.isMisuse("do not nest")(issue)
        }
    }

    @Test func withoutAnAdoptedDatabaseEveryTransactionThrowsNotAdoptedAndRunsNothing() throws {
        let queue = try DatabaseQueue()
        let db = SQLiteDB.adopter(of: queue)
        var ran = false
        let error = #expect(throws: DBError.self) { try db.write { _ in ran = true } }
        #expect(error?.kind == .notAdopted)
        #expect(error?.operation == .write)
        #expect(error?.description.contains("SQLiteDB(adopting:)") == true)
        #expect(!ran)

        // Adopted later: the next transaction finds it.
        let adopter = try SQLiteDB(adopting: queue)
        try db.write { _ in ran = true }
        #expect(ran)
        try adopter.close()
    }

    /// Given the pool or queue as an `any DatabaseReader` (a manager that
    /// only reads), the adopter runs its reads and refuses its writes.
    @Test(arguments: backends)
    func theAdopterOfAReaderReadsOnTheAdopterAndRefusesWrites(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        try app.db.write { tx in try app.store.setInt(5, key: "r", transaction: tx) }
        let reader: any DatabaseReader = app.pool
        let db = SQLiteDB.adopter(ofReader: reader)
        let store = app.store
        #expect(try db.read { tx in try store.getInt("r", transaction: tx) } == 5)
        var ran = false
        let error = #expect(throws: DBError.self) { try db.write { _ in ran = true } }
        #expect(error?.kind == .readOnly)
        #expect(error?.description.contains("adopter(ofReader:)") == true)
        #expect(!ran)
    }

    /// A reader that is not the adopted pool or queue (GRDB's type-erasing
    /// `AnyDatabaseReader` around it, a snapshot) finds no adopter: its
    /// transactions throw `notAdopted`, naming what it is.
    @Test func aReaderThatIsNotThePoolOrQueueFindsNoAdopter() throws {
        let queue = try DatabaseQueue()
        let adopter = try SQLiteDB(adopting: queue)
        var ran = false
        let error = #expect(throws: DBError.self) {
            try SQLiteDB.adopter(ofReader: AnyDatabaseReader(queue)).read { _ in ran = true }
        }
        #expect(error?.kind == .notAdopted)
        #expect(error?.description.contains("AnyDatabaseReader") == true)
        #expect(!ran)
        // The queue itself, held as a reader, is found.
        try SQLiteDB.adopter(ofReader: queue).read { _ in ran = true }
        #expect(ran)
        try adopter.close()
    }

    /// Another pool's adopter is not this pool's.
    @Test func anotherPoolsAdopterIsNotFound() throws {
        let queue = try DatabaseQueue()
        let other = try SQLiteDB(adopting: try DatabaseQueue())
        let error = #expect(throws: DBError.self) { try SQLiteDB.adopter(of: queue).read { _ in } }
        #expect(error?.kind == .notAdopted)
        try other.close()
    }
}

/// `SQLiteDB.deferred(_:)`: a database looked up at each transaction.
@Suite("Adoption: a database looked up at each transaction")
struct DeferredDatabaseTests {
    struct NotConfigured: Error {}

    @Test(arguments: AdoptionBehaviourTests.backends)
    func eachTransactionAsksTheLookupAndRunsOnWhatItReturns(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        let current = Locked<SQLiteDB?>(nil)
        let asked = Locked(0)
        let db = SQLiteDB.deferred {
            asked.withValue { $0 += 1 }
            guard let database = current.value else { throw NotConfigured() }
            return database
        }
        var ran = false
        #expect(throws: NotConfigured.self) { try db.write { _ in ran = true } }
        #expect(!ran)
        current.withValue { $0 = app.db }
        let store = app.store
        try db.write { tx in try store.setInt(9, key: "a", transaction: tx) }
        #expect(try app.kv("a") == 9)
        #expect(try db.read { tx in try store.getInt("a", transaction: tx) } == 9)
        #expect(asked.value == 3)
    }
}

/// A shim's wrapper hands legacy code the connection of a TransactionKit
/// transaction; legacy code that bridges it back gets that transaction.
@Suite("Adoption: bridging the connection of a TransactionKit transaction")
struct RoundTripBridgeTests {
    @Test(arguments: AdoptionBehaviourTests.backends)
    func bridgingTheConnectionOfAWriteReturnsThatWrite(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        try app.db.write { tx in
            let connection = try SQLiteDB.shimOnlyBridge(tx)
            #expect(try SQLiteDB.writeTransaction(bridging: connection) === tx)
            #expect(try SQLiteDB.readTransaction(bridging: connection) === tx)
            #expect(try app.db.writeTransaction(bridging: connection) === tx)
            // Hooks registered through the bridged one are the write's.
            try app.store.setInt(11, key: "a", transaction: SQLiteDB.writeTransaction(bridging: connection))
        }
        #expect(try app.kv("a") == 11)
    }

    @Test(arguments: AdoptionBehaviourTests.backends)
    func bridgingTheConnectionOfAReadReturnsThatRead(_ backend: Backend) throws {
        let app = try AdoptionBehaviourTests.App(backend)
        try app.db.read { tx in
            let connection = try SQLiteDB.shimOnlyBridge(tx)
            #expect(try app.db.readTransaction(bridging: connection) === tx)
        }
    }
}
