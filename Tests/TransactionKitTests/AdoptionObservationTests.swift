import Dispatch
import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Observation on an adopted pool or queue hears the application's own
/// legacy writes, which never bridge; and a database nobody observes carries
/// no change tracker on its writer. Every wait is on a commit the test made.
@Suite("Adoption: observers hear legacy writes")
struct AdoptionObservationTests {
    static let adopted: [Backend] = [.sqliteAdoptedPool, .sqliteAdoptedQueue]
    static let sqlite: [Backend] = [.sqliteInMemory, .sqliteFile, .sqliteAdoptedPool, .sqliteAdoptedQueue]

    static func messageCount(_ tx: DBReadTransaction) throws -> Int {
        try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM message") ?? 0
    }

    /// The application's `write`, synchronous, from an async test.
    static func legacyWrite(_ writer: any DatabaseWriter, _ sql: String) throws {
        try writer.write { database in try database.execute(sql: sql) }
    }

    /// The application's `write`, rolled back.
    static func rolledBackLegacyWrite(_ writer: any DatabaseWriter, _ sql: String) {
        try? writer.write { database in
            try database.execute(sql: sql)
            throw CancellationError()
        }
    }

    /// Returns once the accesses scheduled on the writer so far have run.
    static func waitForWriter(_ writer: any DatabaseWriter) {
        writer.writeWithoutTransaction { _ in }
    }

    @Test(arguments: adopted)
    func aLiveValueUpdatesAfterALegacyWrite(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let db = try #require(fixture.db as? SQLiteDB)
        var values = db.observe { tx in try Self.messageCount(tx) }.makeAsyncIterator()
        #expect(try await values.next() == 0)

        try Self.legacyWrite(db.writer, "INSERT INTO message (text) VALUES ('legacy')")
        #expect(values.isStale)
        #expect(try await values.next() == 1)

        // A legacy write elsewhere: another table, and a rolled-back one.
        try Self.legacyWrite(db.writer, "INSERT INTO audit (text) VALUES ('legacy')")
        Self.rolledBackLegacyWrite(db.writer, "INSERT INTO message (text) VALUES ('rolled back')")
        #expect(values.isStale == (backend == .sqliteAdoptedQueue), "a queue's reads are not traced: every commit")

        try Self.legacyWrite(db.writer, "DELETE FROM message")
        #expect(try await values.next() == 0)
    }

    @Test(arguments: adopted)
    func commitObserversHearLegacyWritesWithTheirTables(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let db = try #require(fixture.db as? SQLiteDB)
        let heard = Locked<[DBChanges]>([])
        let queue = DispatchQueue(label: "observer")
        let observation = db.observeCommits(tables: ["Message", "audit"], queue: queue) { changes in
            heard.withValue { $0.append(changes) }
        }
        defer { observation.cancel() }
        try db.writer.write { database in
            try database.execute(sql: "INSERT INTO message (text) VALUES ('one')")
            try database.execute(sql: "INSERT INTO audit (text) VALUES ('two')")
        }
        try db.writer.writeWithoutTransaction { database in
            try database.execute(sql: "UPDATE message SET text = 'three'")  // a transaction of its own
        }
        try? db.writer.write { database in
            try database.execute(sql: "INSERT INTO message (text) VALUES ('rolled back')")
            throw CancellationError()
        }
        // A bridged write reports the tables changed before the bridge too.
        try db.writer.write { database in
            try database.execute(sql: "INSERT INTO audit (text) VALUES ('before the bridge')")
            let tx = try db.writeTransaction(bridging: database)
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO message (text) VALUES ('bridged')")
        }
        try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "INSERT INTO audit (text) VALUES ('own')") }
        queue.sync {}
        #expect(heard.value == [
            DBChanges(tables: ["Message", "audit"]),
            DBChanges(tables: ["Message"]),
            DBChanges(tables: ["Message", "audit"]),
            DBChanges(tables: ["audit"]),
        ])
    }

    @Test(arguments: sqlite)
    func theWriterCarriesATrackerOnlyWhileSomethingObserves(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let db = try #require(fixture.db as? SQLiteDB)
        try await db.write { tx in try fixture.messages.insert("unobserved", into: "message", tx) }
        #expect(!db.isTrackingChanges, "nobody observes: nothing is installed")

        let first = db.observeCommits(tables: ["message"]) { _ in }
        #expect(db.isTrackingChanges, "installed before the registration returned")
        let second = db.observeCommits(tables: ["audit"]) { _ in }
        first.cancel()
        Self.waitForWriter(db.writer)  // after the removal's writer access
        #expect(db.isTrackingChanges, "one observer is left")
        second.cancel()
        Self.waitForWriter(db.writer)
        #expect(!db.isTrackingChanges, "the last observer went")

        do {
            var values = db.observe { tx in try Self.messageCount(tx) }.makeAsyncIterator()
            #expect(try await values.next() == 1)
            #expect(db.isTrackingChanges, "a live value observes")
        }
        Self.waitForWriter(db.writer)
        #expect(!db.isTrackingChanges, "the live value's iterator is gone")
    }

    /// Observers come and go on several threads while TransactionKit and
    /// the application write: each hears the write it made after its
    /// registration returned, whoever installed or removed the tracker.
    @Test(arguments: sqlite)
    func observersRegisteredWhileOthersWriteHearTheNextCommit(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let db = try #require(fixture.db as? SQLiteDB)
        let missed = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<25 {
                let heard = Locked(false)
                let queue = DispatchQueue(label: "observer \(worker)")
                let observation = db.observeCommits(tables: ["message"], queue: queue) { _ in heard.withValue { $0 = true } }
                do {
                    if worker.isMultiple(of: 2) {
                        try db.write { tx in try fixture.messages.insert("w\(worker) r\(round)", into: "message", tx) }
                    } else {
                        try Self.legacyWrite(db.writer, "INSERT INTO message (text) VALUES ('w\(worker) r\(round)')")
                    }
                } catch {
                    Issue.record(error)
                }
                queue.sync {}
                if !heard.value { missed.withValue { $0 += 1 } }
                observation.cancel()
            }
        }
        #expect(missed.value == 0)
        Self.waitForWriter(db.writer)
        #expect(!db.isTrackingChanges)
    }

    @Test(arguments: sqlite)
    func closingRemovesTheTrackerAndARegistrationAfterInstallsNone(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let db = try #require(fixture.db as? SQLiteDB)
        let observation = db.observeCommits(tables: ["message"]) { _ in }
        defer { observation.cancel() }
        #expect(db.isTrackingChanges)
        try db.close()
        #expect(!db.isTrackingChanges)
        let late = db.observeCommits(tables: ["audit"]) { _ in }
        defer { late.cancel() }
        #expect(!db.isTrackingChanges)
    }
}
