import Dispatch
import Foundation
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport

/// Many writers and readers at once on one file database, through both the
/// synchronous API (plain threads) and the async API (tasks).
///
/// CI also runs this suite under the thread sanitizer
/// (`Scripts/run-thread-sanitizer.sh`).
@Suite("SQLite stress")
struct SQLiteStressTests {
    static let accountCount = 16
    static let initialBalance = 1_000
    static var total: Int { accountCount * initialBalance }

    static var bankMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("bank") { db in
            try db.execute(sql: """
                CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0));
                CREATE TABLE transfer (id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, sequence INTEGER NOT NULL,
                                       amount INTEGER NOT NULL, UNIQUE (writer, sequence));
                CREATE TABLE stats (id INTEGER PRIMARY KEY CHECK (id = 1), transfers INTEGER NOT NULL);
                INSERT INTO stats (id, transfers) VALUES (1, 0);
                """)
            for id in 0..<accountCount {
                try db.execute(sql: "INSERT INTO account (id, balance) VALUES (?, ?)", arguments: [id, initialBalance])
            }
        }
        return migrator
    }

    /// Why a transfer is abandoned on purpose: it must leave no trace.
    struct AbandonedTransfer: Error {}

    /// One transfer in one write transaction: moves money between two
    /// accounts (when the source can pay), logs it, bumps the counter.
    /// Every seventh transfer throws after writing, and must roll back.
    static func transfer(writer: Int, sequence: Int, _ tx: DBWriteTransaction) throws {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        let from = (writer * 7 + sequence * 5) % accountCount
        let to = (from + 1 + (sequence * 3) % (accountCount - 1)) % accountCount
        let amount = 1 + (writer * 31 + sequence * 17) % 200
        let balance = try Int.fetchOne(db, sql: "SELECT balance FROM account WHERE id = ?", arguments: [from])!
        let moved = min(balance, amount)
        try db.execute(sql: "UPDATE account SET balance = balance - ? WHERE id = ?", arguments: [moved, from])
        try db.execute(sql: "UPDATE account SET balance = balance + ? WHERE id = ?", arguments: [moved, to])
        try db.execute(
            sql: "INSERT INTO transfer (writer, sequence, amount) VALUES (?, ?, ?)",
            arguments: [writer, sequence, moved])
        try db.execute(sql: "UPDATE stats SET transfers = transfers + 1")
        if sequence % 7 == 6 {
            throw AbandonedTransfer()
        }
    }

    /// What one reader sees in one snapshot, table by table: the balances
    /// (which must add up), the counter and the log (which must agree).
    struct Snapshot: Sendable {
        var accounts: Int
        var sum: Int
        var counter: Int
        var logged: Int

        var isConsistent: Bool {
            accounts == accountCount && sum == total && counter == logged
        }
    }

    static func snapshot(_ tx: DBReadTransaction) throws -> Snapshot {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        let balances = try Int.fetchAll(db, sql: "SELECT balance FROM account ORDER BY id")
        let counter = try Int.fetchOne(db, sql: "SELECT transfers FROM stats")!
        let logged = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transfer")!
        return Snapshot(accounts: balances.count, sum: balances.reduce(0, +), counter: counter, logged: logged)
    }

    /// Counters shared by the threads and tasks of one test: atomics, and an
    /// `NSLock` (on Linux, ThreadSanitizer does not see the futex handover of
    /// a contended `Synchronization.Mutex`, and would report false races).
    final class Counters: @unchecked Sendable {
        let writersRunning = AtomicInt(0)
        let snapshots = AtomicInt(0)
        let finalizations = AtomicInt(0)
        let syncCompletions = AtomicInt(0)
        let asyncCompletions = AtomicInt(0)
        /// Failures seen on plain threads, checked at the end (an issue
        /// recorded outside the test's task may not be attributed to it).
        private let lock = NSLock()
        private var failures: [String] = []

        func fail(_ message: String) {
            lock.withLock { failures.append(message) }
        }

        var failureList: [String] { lock.withLock { failures } }
    }

    static func expectedTransfers(writers: Int, perWriter: Int) -> Int {
        writers * (0..<perWriter).filter { $0 % 7 != 6 }.count
    }

    @Test func bankTransfersKeepTheTotalAndEveryReaderSeesAConsistentSnapshot() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let db = try SQLiteDB(path: directory.path("bank.sqlite"), migrator: Self.bankMigrator)
        let threadWriters = 4
        let taskWriters = 4
        let transfersPerWriter = 60
        let readers = 4
        let counters = Counters()
        counters.writersRunning.store(threadWriters + taskWriters, ordering: .releasing)

        let threadsDone = DispatchGroup()
        for writer in 0..<threadWriters {
            threadsDone.enter()
            Thread.detachNewThread {
                defer {
                    counters.writersRunning.wrappingAdd(-1, ordering: .releasing)
                    threadsDone.leave()
                }
                for sequence in 0..<transfersPerWriter {
                    do {
                        try db.write { tx in try Self.transfer(writer: writer, sequence: sequence, tx) }
                    } catch is AbandonedTransfer {
                    } catch {
                        counters.fail("transfer \(writer).\(sequence) failed: \(error)")
                    }
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in threadWriters..<(threadWriters + taskWriters) {
                group.addTask {
                    defer { counters.writersRunning.wrappingAdd(-1, ordering: .releasing) }
                    for sequence in 0..<transfersPerWriter {
                        do {
                            try await db.write { tx in try Self.transfer(writer: writer, sequence: sequence, tx) }
                        } catch is AbandonedTransfer {
                        }
                    }
                }
            }
            for _ in 0..<readers {
                group.addTask {
                    var lastCount = 0
                    // Read until every writer finished, and at least a few times.
                    var reads = 0
                    while counters.writersRunning.load(ordering: .acquiring) > 0 || reads < 5 {
                        let snapshot = try await db.read { tx in try Self.snapshot(tx) }
                        #expect(snapshot.isConsistent, "inconsistent snapshot: \(snapshot)")
                        #expect(snapshot.counter >= lastCount, "a reader went back in time")
                        lastCount = snapshot.counter
                        reads += 1
                    }
                    counters.snapshots.wrappingAdd(reads, ordering: .relaxed)
                }
            }
            try await group.waitForAll()
        }
        await withCheckedContinuation { continuation in
            threadsDone.notify(queue: .global()) { continuation.resume() }
        }

        #expect(counters.failureList == [])
        let final = try await db.read { tx in try Self.snapshot(tx) }
        #expect(final.isConsistent, "\(final)")
        #expect(final.counter == Self.expectedTransfers(writers: threadWriters + taskWriters, perWriter: transfersPerWriter))
        let abandonedLogged = try await db.read { tx in
            try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM transfer WHERE sequence % 7 = 6")
        }
        #expect(abandonedLogged == 0)
        #expect(counters.snapshots.load(ordering: .relaxed) >= readers * 5)
    }

    @Test func concurrentIncrementsWithCompletionsAreCountedExactly() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let db = try SQLiteDB(path: directory.path("increments.sqlite"))
        try await db.write { tx in
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
        }
        let threadWriters = 4
        let taskWriters = 4
        let incrementsPerWriter = 50
        let counters = Counters()
        let queue = DispatchQueue(label: "increment completions", attributes: .concurrent)

        @Sendable func increment(_ tx: DBWriteTransaction) throws {
            let db = try SQLiteDB.shimOnlyBridge(tx)
            let value = try Int.fetchOne(db, sql: "SELECT value FROM counter")!
            try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
            tx.addFinalization(key: "count") { _ in counters.finalizations.wrappingAdd(1, ordering: .relaxed) }
            tx.addSyncCompletion { counters.syncCompletions.wrappingAdd(1, ordering: .relaxed) }
            tx.addAsyncCompletion(on: queue) { counters.asyncCompletions.wrappingAdd(1, ordering: .relaxed) }
        }

        let threadsDone = DispatchGroup()
        for _ in 0..<threadWriters {
            threadsDone.enter()
            Thread.detachNewThread {
                defer { threadsDone.leave() }
                for _ in 0..<incrementsPerWriter {
                    do {
                        try db.write { tx in try increment(tx) }
                    } catch {
                        counters.fail("increment failed: \(error)")
                    }
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<taskWriters {
                group.addTask {
                    for _ in 0..<incrementsPerWriter {
                        try await db.write { tx in try increment(tx) }
                    }
                }
            }
            try await group.waitForAll()
        }
        await withCheckedContinuation { continuation in
            threadsDone.notify(queue: .global()) { continuation.resume() }
        }
        await db.waitForAsyncCompletions()

        #expect(counters.failureList == [])
        let expected = (threadWriters + taskWriters) * incrementsPerWriter
        let final = try await db.read { tx in try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT value FROM counter") }
        #expect(final == expected)
        #expect(counters.finalizations.load(ordering: .relaxed) == expected)
        #expect(counters.syncCompletions.load(ordering: .relaxed) == expected)
        #expect(counters.asyncCompletions.load(ordering: .relaxed) == expected)
        #expect(db.pendingAsyncCompletionCount == 0)
    }
}
