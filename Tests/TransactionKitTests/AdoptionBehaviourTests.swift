import Dispatch
import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// `SQLiteDB(adopting:)` inside an application that owns its GRDB pool or
/// queue, and transactions bridged from the application's own GRDB
/// transactions (`writeTransaction(bridging:)`, `readTransaction(bridging:)`),
/// on an adopted pool (a file) and an adopted in-memory queue. The rest of
/// the behaviour suite runs on both as well (see `Backend`).
@Suite("Adoption: legacy GRDB transactions bridged")
struct AdoptionBehaviourTests {
    static let backends: [Backend] = [.sqliteAdoptedPool, .sqliteAdoptedQueue]

    /// The adopted database, the application's own writer, and the fixture
    /// that keeps a file's directory alive.
    struct App {
        let fixture: Fixture
        var db: SQLiteDB { fixture.db as! SQLiteDB }
        var pool: any DatabaseWriter { db.writer }
        let store = KeyValueStore(collection: "kv")

        init(_ backend: Backend) throws {
            fixture = try backend.makeFixture()
        }

        func count(_ table: String) throws -> Int {
            try pool.read { database in try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
        }

        func kv(_ key: String) throws -> Int? {
            try db.read { tx in try store.getInt(key, transaction: tx) }
        }
    }

    /// GRDB's synchronous `write`, from an async test.
    static func syncWrite(_ pool: any DatabaseWriter, _ body: (Database) throws -> Void) throws {
        try pool.write(body)
    }

    static func isMisuse(_ text: String) -> @Sendable (Issue) -> Bool {
        { issue in issue.comments.contains { $0.rawValue.contains("TransactionKit misuse:") && $0.rawValue.contains(text) } }
    }

    // MARK: - One transaction for both worlds

    @Test(arguments: backends)
    func aBridgedWriteIsTheApplicationsTransaction(_ backend: Backend) throws {
        let app = try App(backend)
        let events = Locked<[String]>([])
        try app.pool.write { database in
            try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
            let tx = try app.db.writeTransaction(bridging: database)
            #expect(try SQLiteDB.shimOnlyBridge(tx) === database)
            try SQLiteMessageFinder().insert("migrated", into: "message", tx)
            try app.store.setInt(7, key: "a", transaction: tx)
            tx.addFinalization(key: "f") { _ in events.withValue { $0.append("finalization") } }
            tx.addSyncCompletion { events.withValue { $0.append("completion") } }
            events.withValue { $0.append("block end") }
        }
        events.withValue { $0.append("write returned") }
        #expect(events.value == ["block end", "finalization", "completion", "write returned"])
        #expect(try app.count("message") == 2)
        #expect(try app.kv("a") == 7)
    }

    @Test(arguments: backends)
    func aRolledBackApplicationTransactionRunsNoHookAndKeepsNothing(_ backend: Backend) async throws {
        let app = try App(backend)
        let events = Locked<[String]>([])
        let observation = app.db.observeCommits(tables: ["message"], keyValueCollections: ["kv"]) { changes in
            events.withValue { $0.append("observed \(changes)") }
        }
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try Self.syncWrite(app.pool) { database in
                let tx = try app.db.writeTransaction(bridging: database)
                try SQLiteMessageFinder().insert("migrated", into: "message", tx)
                try app.store.setInt(7, key: "a", transaction: tx)
                tx.addFinalization(key: "f") { _ in events.withValue { $0.append("finalization") } }
                tx.addSyncCompletion { events.withValue { $0.append("completion") } }
                tx.addAsyncCompletion(on: DispatchQueue.global()) { events.withValue { $0.append("async completion") } }
                throw Failure()
            }
        }
        await app.db.waitForAsyncCompletions()
        withExtendedLifetime(observation) {}
        #expect(events.value == [])
        #expect(try app.count("message") == 0)
        #expect(try app.kv("a") == nil)
    }

    @Test(arguments: backends)
    func bridgingTwiceSharesOneSetOfHooks(_ backend: Backend) throws {
        let app = try App(backend)
        let events = Locked<[String]>([])
        try app.pool.write { database in
            let first = try app.db.writeTransaction(bridging: database)
            first.addFinalization(key: "k") { _ in events.withValue { $0.append("first") } }
            let second = try app.db.writeTransaction(bridging: database)
            #expect(first === second)
            second.addFinalization(key: "k") { _ in events.withValue { $0.append("second") } }
            let read = try app.db.readTransaction(bridging: database)
            #expect(read === first, "a read bridge inside the application's write is the same transaction")
        }
        #expect(events.value == ["second"], "the last finalization for a key wins, once")
    }

    @Test(arguments: backends)
    func anAsyncCompletionRunsAfterTheApplicationsCommit(_ backend: Backend) async throws {
        let app = try App(backend)
        let seen = Locked<Int?>(nil)
        try Self.syncWrite(app.pool) { database in
            let tx = try app.db.writeTransaction(bridging: database)
            try app.store.setInt(3, key: "a", transaction: tx)
            tx.addAsyncCompletion(on: DispatchQueue.global()) {
                seen.withValue { $0 = try? app.kv("a") }
            }
        }
        await app.db.waitForAsyncCompletions()
        #expect(seen.value == 3, "the completion ran after the commit and could read it")
    }

    @Test(arguments: backends)
    func observersHearLegacyAndBridgedCommitsAndNeverARollback(_ backend: Backend) throws {
        let app = try App(backend)
        let heard = Locked<[DBChanges]>([])
        let queue = DispatchQueue(label: "observer")
        let observation = app.db.observeCommits(tables: ["message", "audit"], keyValueCollections: ["kv"], queue: queue) {
            changes in heard.withValue { $0.append(changes) }
        }
        defer { observation.cancel() }
        try app.pool.write { database in
            try database.execute(sql: "INSERT INTO audit (text) VALUES ('legacy, never bridged')")
        }
        try app.pool.write { database in
            let tx = try app.db.writeTransaction(bridging: database)
            try database.execute(sql: "INSERT INTO message (text) VALUES ('after the bridge')")
            try app.store.setInt(1, key: "a", transaction: tx)
        }
        try? app.pool.write { database in
            let tx = try app.db.writeTransaction(bridging: database)
            try SQLiteMessageFinder().insert("rolled back", into: "message", tx)
            throw CancellationError()
        }
        queue.sync {}
        #expect(heard.value == [
            DBChanges(tables: ["audit"]),
            DBChanges(tables: ["message"], keyValueCollections: ["kv"]),
        ])
    }

    @Test(arguments: backends)
    func aReadBridgeInsideTheApplicationsReadSeesItsSnapshot(_ backend: Backend) throws {
        let app = try App(backend)
        try app.db.write { tx in try SQLiteMessageFinder().insert("committed", into: "message", tx) }
        let count = try app.pool.read { database in
            let tx = try app.db.readTransaction(bridging: database)
            #expect(try SQLiteDB.shimOnlyBridge(tx) === database)
            return try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM message")
        }
        #expect(count == 1)
    }

    // MARK: - Misuse across the two worlds

    @Test(arguments: backends)
    func aWriteInsideTheApplicationsWriteIsANestedTransaction(_ backend: Backend) throws {
        let app = try App(backend)
        let thrown = Locked<[String]>([])
        try withKnownIssue {
            try app.pool.write { database in
                try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
                do {
                    try app.db.write { tx in try SQLiteMessageFinder().insert("nested", into: "message", tx) }
                } catch let error as DBMisuseError {
                    thrown.withValue { $0.append(error.message) }
                }
            }
        } matching: { issue in
            Self.isMisuse("inside a transaction that the application opened itself")(issue)
                && issue.sourceLocation?.fileName == "AdoptionBehaviourTests.swift"
        }
        #expect(thrown.value.count == 1)
        #expect(try app.count("message") == 1, "the application's write went on and committed")
    }

    @Test(arguments: backends)
    func aReadOrWriteInsideABridgedWriteIsANestedTransaction(_ backend: Backend) throws {
        let app = try App(backend)
        let thrown = Locked<[String]>([])
        try withKnownIssue {
            try app.pool.write { database in
                _ = try app.db.writeTransaction(bridging: database)
                for open in [{ _ = try app.db.read { _ in 0 } }, { try app.db.write { _ in } }] as [() throws -> Void] {
                    do { try open() } catch let error as DBMisuseError { thrown.withValue { $0.append(error.message) } }
                }
            }
        } matching: { issue in
            Self.isMisuse("Transactions do not nest")(issue)
        }
        #expect(thrown.value.count == 2)
    }

    @Test(arguments: backends)
    func aBridgedTransactionUsedAfterTheApplicationsWriteHasEscaped(_ backend: Backend) throws {
        let app = try App(backend)
        let smuggler = TransactionSmuggler<DBWriteTransaction>()
        try app.pool.write { database in
            smuggler.transaction = try app.db.writeTransaction(bridging: database)
        }
        let escaped = try #require(smuggler.transaction)
        #expect(!escaped.isActive)
        withKnownIssue {
            #expect(throws: DBMisuseError.self) { try SQLiteDB.shimOnlyBridge(escaped) }
            #expect(throws: DBMisuseError.self) { try app.store.setInt(1, key: "a", transaction: escaped) }
        } matching: { issue in
            Self.isMisuse("has been committed")(issue)
        }
        // The next application write is not disturbed by the escaped one.
        try app.pool.write { database in
            let tx = try app.db.writeTransaction(bridging: database)
            #expect(tx !== escaped)
            try app.store.setInt(2, key: "a", transaction: tx)
        }
        #expect(try app.kv("a") == 2)
    }

    @Test(arguments: backends)
    func aReadBridgeUsedAfterTheApplicationsReadHasEscaped(_ backend: Backend) throws {
        guard backend == .sqliteAdoptedPool else { return }  // a queue's reads run on its writer
        let app = try App(backend)
        let smuggler = TransactionSmuggler<DBReadTransaction>()
        try app.pool.read { database in
            smuggler.transaction = try app.db.readTransaction(bridging: database)
        }
        let escaped = try #require(smuggler.transaction)
        withKnownIssue {
            #expect(throws: DBMisuseError.self) { try SQLiteDB.shimOnlyBridge(escaped) }
        } matching: { issue in
            Self.isMisuse("ended with the application's read")(issue)
        }
        #expect(!escaped.isActive)
    }

    @Test(arguments: backends)
    func bridgingOutsideATransactionOrAnotherDatabaseIsAMisuse(_ backend: Backend) throws {
        let app = try App(backend)
        let other = try DatabaseQueue()
        let thrown = Locked<[String]>([])
        try withKnownIssue {
            app.pool.writeWithoutTransaction { database in
                do { _ = try app.db.writeTransaction(bridging: database) } catch { thrown.withValue { $0.append("\(error)") } }
            }
            try other.write { database in
                do { _ = try app.db.writeTransaction(bridging: database) } catch { thrown.withValue { $0.append("\(error)") } }
                do { _ = try app.db.readTransaction(bridging: database) } catch { thrown.withValue { $0.append("\(error)") } }
            }
            if let pool = app.pool as? DatabasePool {
                try pool.read { database in
                    do { _ = try app.db.writeTransaction(bridging: database) } catch { thrown.withValue { $0.append("\(error)") } }
                }
            }
        } matching: { issue in
            Self.isMisuse("bridging:)")(issue) && issue.sourceLocation?.fileName == "AdoptionBehaviourTests.swift"
        }
        let messages = thrown.value
        #expect(messages.count == (backend == .sqliteAdoptedPool ? 4 : 3))
        #expect(messages[0].contains("not inside a transaction"))
        #expect(messages[1].contains("another database"))
        #expect(messages[2].contains("another database"))
        if backend == .sqliteAdoptedPool {
            #expect(messages[3].contains("read-only connection"))
        }
    }

    @Test(arguments: backends)
    func aBridgedFinalizationThatRunsSQLIsRefusedAndRollsTheApplicationBack(_ backend: Backend) throws {
        let app = try App(backend)
        withKnownIssue {
            #expect(throws: DBMisuseError.self) {
                try app.pool.write { database in
                    try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
                    let tx = try app.db.writeTransaction(bridging: database)
                    tx.addFinalization(key: "sql") { tx in try app.store.setInt(1, key: "a", transaction: tx) }
                }
            }
        } matching: { issue in
            Self.isMisuse("inside SQLite's commit hook")(issue)
        }
        #expect(try app.count("message") == 0)
        #expect(try app.kv("a") == nil)
    }

    @Test(arguments: backends)
    func aScopedBridgeRunsFinalizationsThatWriteWhenItsBlockReturns(_ backend: Backend) throws {
        let app = try App(backend)
        let events = Locked<[String]>([])
        try app.pool.write { database in
            try app.db.writeTransaction(bridging: database) { tx in
                try SQLiteMessageFinder().insert("migrated", into: "message", tx)
                tx.addFinalization(key: "count") { tx in
                    let count = try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM message") ?? 0
                    try app.store.setInt(count, key: "count", transaction: tx)
                    events.withValue { $0.append("finalization saw \(count)") }
                }
                tx.addSyncCompletion { events.withValue { $0.append("completion") } }
            }
            events.withValue { $0.append("scoped block returned") }
            try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy, after the migrated code')")
            // Bridging again in the same transaction: the same one, still open.
            let again = try app.db.writeTransaction(bridging: database)
            try app.store.setInt(1, key: "after", transaction: again)
        }
        #expect(events.value == ["finalization saw 1", "scoped block returned", "completion"])
        #expect(try app.kv("count") == 1)
        #expect(try app.kv("after") == 1)
        #expect(try app.count("message") == 2)
    }

    @Test(arguments: backends)
    func aScopedBridgeWhoseBlockThrowsRunsNoFinalization(_ backend: Backend) throws {
        let app = try App(backend)
        let events = Locked<[String]>([])
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try app.pool.write { database in
                try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
                try app.db.writeTransaction(bridging: database) { tx in
                    tx.addFinalization(key: "f") { _ in events.withValue { $0.append("finalization") } }
                    tx.addSyncCompletion { events.withValue { $0.append("completion") } }
                    throw Refused()
                }
            }
        }
        #expect(events.value == [])
        #expect(try app.count("message") == 0)
    }

    // MARK: - Concurrency

    @Test(arguments: backends)
    func legacyAndMigratedWritersInterleaveWithoutBusyErrors(_ backend: Backend) throws {
        let app = try App(backend)
        let failures = Locked<[String]>([])
        let perThread = 50
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<perThread {
                do {
                    switch (thread + round) % 3 {
                    case 0:
                        try app.pool.write { database in
                            try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy')")
                        }
                    case 1:
                        try app.db.write { tx in try SQLiteMessageFinder().insert("migrated", into: "message", tx) }
                    default:
                        try app.pool.write { database in
                            try database.execute(sql: "INSERT INTO message (text) VALUES ('legacy, bridged')")
                            let tx = try app.db.writeTransaction(bridging: database)
                            try SQLiteMessageFinder().insert("bridged", into: "message", tx)
                        }
                    }
                } catch {
                    failures.withValue { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.value == [], "no busy error, no failure")
        let bridgedRounds = (0..<8).reduce(0) { sum, thread in
            sum + (0..<perThread).filter { (thread + $0) % 3 == 2 }.count
        }
        #expect(try app.count("message") == 8 * perThread + bridgedRounds)
    }

    // MARK: - Adoption itself

    @Test(arguments: backends)
    func closingAnAdoptedDatabaseLeavesTheApplicationsPoolOpen(_ backend: Backend) throws {
        let app = try App(backend)
        try app.db.close()
        #expect(throws: DBError.self) { try app.db.write { _ in } }
        try app.pool.write { database in
            try database.execute(sql: "INSERT INTO message (text) VALUES ('after close')")
        }
        #expect(try app.count("message") == 1)
    }

    @Test(arguments: backends)
    func adoptionCreatesTheKeyValueTablesOnceAndKeepsTheApplicationsSchema(_ backend: Backend) throws {
        let app = try App(backend)
        let tables = try app.pool.read { database in
            try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables.contains("transactionkit_key_value"))
        #expect(tables.contains("message"))
        #expect(app.db.isAdopted)
        #expect(try app.pool.read { database in
            try Int.fetchOne(database, sql: "SELECT version FROM transactionkit_schema WHERE component = 'key_value'")
        } == 1)
    }
}
