import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// The read-only connections of a file `SQLiteDB`: the reader limit, async
/// reads that wait for a reader, the schema cache after another
/// connection's migration, and closing while reads run.
@Suite("SQLiteDB readers")
struct SQLiteReaderPoolTests {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO item (name) VALUES ('one'), ('two')")
        }
        return migrator
    }

    /// Counts the blocks running at once, and the most seen. An `NSLock`
    /// (a pthread mutex), not `Synchronization.Mutex`, whose contended
    /// hand-over the thread sanitizer does not see on Linux.
    final class Concurrency: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 0
        private var mostSeen = 0

        func during<T>(_ body: () throws -> T) rethrows -> T {
            lock.withLock {
                running += 1
                mostSeen = max(mostSeen, running)
            }
            defer { lock.withLock { running -= 1 } }
            return try body()
        }

        var most: Int { lock.withLock { mostSeen } }
    }

    /// A value shared between threads, behind an `NSLock` (see
    /// ``Concurrency``).
    final class Shared<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value

        init(_ value: Value) { stored = value }

        func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
            try lock.withLock { try body(&stored) }
        }
    }

    @Test func synchronousReadsBeyondTheReaderLimitWaitForAReader() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        var options = SQLiteDB.Options()
        options.maximumReaderCount = 2
        let db = try SQLiteDB(path: directory.path("limit.sqlite"), migrator: Self.migrator, options: options)
        let concurrency = Concurrency()
        let failures = Shared(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                do {
                    let count = try db.read { tx in
                        try concurrency.during {
                            usleep(100)
                            return try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM item")
                        }
                    }
                    if count != 2 { failures.withLock { $0 += 1 } }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(concurrency.most <= 2)
    }

    @Test func asyncReadsBeyondTheReaderLimitSuspendUntilAReaderIsFree() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        var options = SQLiteDB.Options()
        options.maximumReaderCount = 2
        let db = try SQLiteDB(path: directory.path("async.sqlite"), migrator: Self.migrator, options: options)
        let concurrency = Concurrency()
        let counts = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await db.read { tx in
                        try concurrency.during {
                            usleep(500)
                            return try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM item")
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 2, count: 32))
        #expect(concurrency.most <= 2)
    }

    /// A reader caches the schema (GRDB's schema cache); a migration made
    /// by another connection must not leave it stale.
    @Test func aReaderSeesTheSchemaThatAnotherConnectionMigrated() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("schema.sqlite")
        var options = SQLiteDB.Options()
        options.maximumReaderCount = 1
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: options)
        let columns = { try db.read { tx in try SQLiteDB.shimOnlyBridge(tx).columns(in: "item").map(\.name) } }
        #expect(try columns() == ["id", "name"])

        var migrator = Self.migrator
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE item ADD COLUMN note TEXT")
        }
        let other = try SQLiteDB(path: path, migrator: migrator)
        try other.close()

        #expect(try columns() == ["id", "name", "note"])
    }

    @Test func closeWaitsForARunningReadThenRefusesNewReads() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let db = try SQLiteDB(path: directory.path("close.sqlite"), migrator: Self.migrator)
        let readStarted = DispatchSemaphore(value: 0)
        let releaseRead = DispatchSemaphore(value: 0)
        let readFinished = Shared(false)
        let readResult = Shared<Int?>(nil)
        let reader = Thread {
            let count = try? db.read { tx in
                readStarted.signal()
                releaseRead.wait()
                let count = try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM item")
                readFinished.withLock { $0 = true }
                return count
            }
            readResult.withLock { $0 = count }
        }
        reader.start()
        readStarted.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { releaseRead.signal() }
        try db.close()
        #expect(readFinished.withLock { $0 })
        while readResult.withLock({ $0 }) == nil { usleep(1000) }
        #expect(readResult.withLock { $0 } == 2)

        let error = #expect(throws: DBError.self) { try db.read { _ in } }
        #expect(error?.kind == .closed)
    }
}
