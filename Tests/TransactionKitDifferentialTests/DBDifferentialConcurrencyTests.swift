import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport

/// Random transactions from several threads and tasks at once, checked
/// against a serial order, on every backend.
///
/// Each write reads a version counter and some counters, writes them back
/// changed and the version plus one, and logs what it read and wrote in a
/// sync completion (which runs only after its commit). Some writes throw or
/// roll back at the end. Then:
/// - the committed versions are 1…n with no gap or repeat: each write saw
///   the one before it, so the versions are a serial order;
/// - replayed in that order on a model, each write read the model's state;
/// - each read saw the model's state at the version it read (a snapshot
///   some serial order produces);
/// - an observer heard exactly the committed writes (none rolled back);
/// - the final state is the model's, and the counters add up.
@Suite("DB differential: concurrent transactions against a serial order")
struct DBDifferentialConcurrencyTests {
    static let counters = ["c0", "c1", "c2", "c3"]
    static let store = KeyValueStore(collection: "kv")

    struct WriteRecord: Sendable {
        var version: Int
        var reads: [String: Int]
        var writes: [String: Int]
    }

    struct ReadRecord: Sendable {
        var version: Int
        var values: [String: Int]
    }

    final class Log: Sendable {
        let writes = EventList<WriteRecord>()
        let reads = EventList<ReadRecord>()
        let notifications = EventList<DBChanges>()
    }

    @Test(arguments: DifferentialBackend.allCases)
    func threadsAndTasksSeeASerialOrder(_ backend: DifferentialBackend) async throws {
        let database = try backend.makeDatabase()
        defer { database.close() }
        let db = database.db
        let log = Log()
        let deliveries = DispatchQueue(label: "DBDifferentialConcurrencyTests.deliveries")
        let observation = db.observeCommits(keyValueCollections: ["kv"], queue: deliveries) { log.notifications.append($0) }
        defer { observation.cancel() }
        let seed = DifferentialBudget.current.seed
        let workers = 6
        let transactionsPerWorker = 100

        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                let start = SplitMix64(seed: SplitMix64.programSeed(seed, index: 1_000 + worker))
                if worker.isMultiple(of: 2) {
                    // Threads: the synchronous API, each on a thread of its own.
                    let done = AsyncSignalOnce()
                    let thread = Thread {
                        var random = start
                        for _ in 0..<transactionsPerWorker {
                            Self.runOne(db, log, &random)
                        }
                        done.signal()
                    }
                    thread.start()
                    group.addTask { await done.wait() }
                } else {
                    // Tasks: the async variants of the same API.
                    group.addTask {
                        var random = start
                        for _ in 0..<transactionsPerWorker {
                            await Self.runOneAsync(db, log, &random)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        deliveries.sync {}

        let writes = log.writes.all.sorted { $0.version < $1.version }
        #expect(writes.map(\.version) == Array(1..<writes.count + 1), "committed versions are 1…n, each once")
        var model = Dictionary(uniqueKeysWithValues: (Self.counters + ["version"]).map { ($0, 0) })
        var states = [model]
        for write in writes {
            for (key, value) in write.reads {
                #expect(model[key] == value, "write \(write.version) read \(key) = \(value), the serial order has \(model[key] ?? -1)")
            }
            for (key, value) in write.writes { model[key] = value }
            states.append(model)
        }
        for read in log.reads.all {
            #expect(read.version < states.count)
            if read.version < states.count {
                #expect(read.values == states[read.version], "a read at version \(read.version) saw \(read.values)")
            }
        }
        #expect(log.notifications.all.count == writes.count, "one notification per committed write, none for a rollback")
        let final = try await db.read { tx in
            Dictionary(uniqueKeysWithValues: try (Self.counters + ["version"]).map { ($0, try Self.store.getInt($0, transaction: tx) ?? 0) })
        }
        #expect(final == model)
        #expect(writes.count > workers, "enough writes committed to mean something (\(writes.count))")
    }

    /// One random transaction on the synchronous API.
    static func runOne(_ db: any DB, _ log: Log, _ random: inout SplitMix64) {
        let plan = Plan(&random)
        if plan.isRead {
            if let record = try? db.read({ tx in try read(tx, pause: plan.pausesReading) }) { log.reads.append(record) }
        } else {
            _ = try? db.write { tx in try write(tx, plan, log) }
        }
    }

    /// One random transaction on the async variants.
    static func runOneAsync(_ db: any DB, _ log: Log, _ random: inout SplitMix64) async {
        let plan = Plan(&random)
        if plan.isRead {
            if let record = try? await db.read({ tx in try read(tx, pause: plan.pausesReading) }) { log.reads.append(record) }
        } else {
            _ = try? await db.write { tx in try write(tx, plan, log) }
        }
    }

    /// What one transaction does, drawn before it begins.
    struct Plan: Sendable {
        var isRead: Bool
        var touched: [String]
        var delta: Int
        var throwsAtTheEnd: Bool
        var pausesReading: Bool

        init(_ random: inout SplitMix64) {
            isRead = random.chance(30)
            pausesReading = random.chance(50)
            touched = DBDifferentialConcurrencyTests.counters.filter { _ in random.chance(50) }
            delta = 1 + random.below(9)
            throwsAtTheEnd = random.chance(20)
        }
    }

    /// Reads the version, pauses (so that writes commit meanwhile: a read
    /// that is not one snapshot then mixes two versions), reads the
    /// counters.
    static func read(_ tx: DBReadTransaction, pause: Bool) throws -> ReadRecord {
        var values: [String: Int] = [:]
        for key in ["version"] + counters {
            values[key] = try store.getInt(key, transaction: tx) ?? 0
            if pause, key == "version" { usleep(300) }
        }
        return ReadRecord(version: values["version"] ?? 0, values: values)
    }

    static func write(_ tx: DBWriteTransaction, _ plan: Plan, _ log: Log) throws {
        let version = try store.getInt("version", transaction: tx) ?? 0
        var record = WriteRecord(version: version + 1, reads: ["version": version], writes: ["version": version + 1])
        for key in plan.touched {
            let value = try store.getInt(key, transaction: tx) ?? 0
            record.reads[key] = value
            record.writes[key] = value + plan.delta
            try store.setInt(value + plan.delta, key: key, transaction: tx)
        }
        try store.setInt(version + 1, key: "version", transaction: tx)
        tx.addSyncCompletion { log.writes.append(record) }
        if plan.throwsAtTheEnd { throw TestError(id: version) }
    }
}

/// Values appended from any thread, in order (behind `LockedValue`, which
/// the thread sanitizer sees).
final class EventList<Element: Sendable>: Sendable {
    private let storage = LockedValue<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var all: [Element] {
        storage.withLock { $0 }
    }
}

/// A signal from a thread to a task: `wait()` suspends until `signal()`.
final class AsyncSignalOnce: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func signal() {
        continuation.yield()
        continuation.finish()
    }

    func wait() async {
        for await _ in stream { return }
    }
}
