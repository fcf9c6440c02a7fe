import Foundation
import GRDB
import Synchronization
import TransactionKit
import TransactionKitSQLite

/// Legacy and migrated writers interleaved on one adopted pool: 8 threads
/// committing one-row `UPDATE`s for ``window``, with every thread running.
///
/// - `adopted_8t`: one application `DatabasePool` adopted by an `SQLiteDB`;
///   each thread takes the three kinds of write in turn: a legacy
///   `pool.write` (`tick` row 1), a legacy `pool.write` bridged with
///   `writeTransaction(bridging:)` whose UPDATE runs through
///   `SQLiteDB.shimOnlyBridge` (row 2), and a migrated `db.write` (row 3).
///   `adopted_8t_legacy`, `_bridged` and `_migrated` are its commits per
///   kind.
/// - `grdb_8t`: the same 8 threads doing only legacy `pool.write`s on a pool
///   nobody adopted (the application before adoption).
/// - `sqlitedb_8t`: the same 8 threads doing only `db.write`s on
///   `SQLiteDB(path:)`.
///
/// Every window checks that the rows moved by exactly the commits counted.
/// A busy error (`SQLITE_BUSY` / `SQLITE_LOCKED` from GRDB, or a `DBError`
/// of kind `.busy` / `.locked`) is counted and the thread goes on; any other
/// error stops the run. Reported as two entries: `adopted_mixed_writes`
/// (commits per second) and `adopted_mixed_busy_errors` (busy errors per
/// window, with the total in the note; it must be 0).
struct AdoptionWritersBenchmark {
    let settings: BenchSettings
    let rounds: Int
    let window: Duration

    static let entryNames: Set<String> = ["adopted_mixed_writes", "adopted_mixed_busy_errors"]
    static let threadCount = 8
    private static let variants = ["grdb_8t", "sqlitedb_8t", "adopted_8t"]
    private static let schema = """
        CREATE TABLE tick (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
        INSERT INTO tick (id, n) VALUES (1, 0), (2, 0), (3, 0);
        """
    fileprivate static func tickSQL(_ row: Int) -> String { "UPDATE tick SET n = n + 1 WHERE id = \(row)" }

    /// What one window measured: commits per kind (legacy, bridged,
    /// migrated), busy errors, and the window's length.
    struct Sample {
        var commits: [Int]
        var busyErrors: Int
        var seconds: Double
    }

    func run() throws -> [BenchEntryResult] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-bench-writers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let plainPool = try settings.openGRDBPool(path: directory.appendingPathComponent("grdb.sqlite").path)
        try plainPool.write { db in try db.execute(sql: Self.schema) }
        let appPool = try settings.openGRDBPool(path: directory.appendingPathComponent("adopted.sqlite").path)
        try appPool.write { db in try db.execute(sql: Self.schema) }
        let adoptedDB = try SQLiteDB(adopting: appPool)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("bench") { db in try db.execute(sql: Self.schema) }
        let pathDB = try SQLiteDB(
            path: directory.appendingPathComponent("sqlitedb.sqlite").path, migrator: migrator,
            options: settings.sqliteDBOptions)

        let writes: [String: Writes] = [
            "grdb_8t": Writes(pool: plainPool, kinds: [.legacy]),
            "sqlitedb_8t": Writes(db: pathDB, kinds: [.migrated]),
            "adopted_8t": Writes(pool: appPool, db: adoptedDB, kinds: [.legacy, .bridged, .migrated]),
        ]
        // One untimed window each (opens connections, warms caches).
        for variant in Self.variants {
            _ = try measure(variant, writes[variant]!, window: .milliseconds(50))
        }
        var samples: [String: [Sample]] = [:]
        for round in 0..<rounds {
            for offset in 0..<Self.variants.count {
                let variant = Self.variants[(round + offset) % Self.variants.count]
                samples[variant, default: []].append(try measure(variant, writes[variant]!, window: window))
            }
        }

        func perSecond(_ sample: Sample, _ kinds: [Int]) -> Double {
            Double(kinds.reduce(0) { $0 + sample.commits[$1] }) / sample.seconds
        }
        let all = [0, 1, 2]
        var throughput = Self.variants.map { name in
            BenchVariantResult(name: name, samples: samples[name]!.map { perSecond($0, all) })
        }
        for (index, kind) in ["legacy", "bridged", "migrated"].enumerated() {
            throughput.append(BenchVariantResult(
                name: "adopted_8t_\(kind)", samples: samples["adopted_8t"]!.map { perSecond($0, [index]) }))
        }
        let totals = Self.variants.map { name in
            "\(name) \(samples[name]!.reduce(0) { $0 + $1.busyErrors })"
        }
        let setting = "\(Self.threadCount) threads committing one-row UPDATEs for \(window) windows, \(rounds) rounds; adopted_8t = one adopted DatabasePool, each thread taking in turn a legacy pool.write, a bridged pool.write (UPDATE through shimOnlyBridge) and a migrated db.write; grdb_8t = legacy pool.write only, on a pool nobody adopted; sqlitedb_8t = db.write only, on SQLiteDB(path:)"
        return [
            BenchEntryResult(
                name: "adopted_mixed_writes", unit: "tx/s", note: setting + "; commits per second, all threads",
                variants: throughput,
                ratios: [("adopted_8t", "grdb_8t"), ("sqlitedb_8t", "grdb_8t")]),
            BenchEntryResult(
                name: "adopted_mixed_busy_errors", unit: "errors/window",
                note: setting + "; busy errors per window (must be 0); total over the run: "
                    + totals.joined(separator: ", "),
                variants: Self.variants.map { name in
                    BenchVariantResult(name: name, samples: samples[name]!.map { Double($0.busyErrors) })
                },
                ratios: []),
        ]
    }

    private func measure(_ variant: String, _ writes: Writes, window: Duration) throws -> Sample {
        let before = try writes.ticks()
        let run = WritersRun(threads: Self.threadCount)
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for thread in 0..<Self.threadCount {
            group.enter()
            Thread {
                defer { group.leave() }
                start.wait()
                var commits = [0, 0, 0]
                var busy = 0
                var step = thread
                while !run.isStopped {
                    let kind = writes.kinds[step % writes.kinds.count]
                    step += 1
                    do {
                        try writes.commit(kind)
                        commits[kind.rawValue] += 1
                    } catch {
                        if Self.isBusy(error) {
                            busy += 1
                        } else {
                            run.record("\(kind) write: \(error)")
                        }
                    }
                }
                run.finish(thread, commits: commits, busyErrors: busy)
            }.start()
        }
        let began = ContinuousClock.now
        for _ in 0..<Self.threadCount { start.signal() }
        let (seconds, attoseconds) = window.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        run.stop()
        group.wait()
        let elapsed = BenchHarness.nanoseconds(began.duration(to: .now)) / 1e9
        let sample = try run.sample(seconds: elapsed, label: variant)
        let after = try writes.ticks()
        let moved = zip(after, before).map { $0 - $1 }
        guard moved == sample.commits else {
            throw BenchFailure("\(variant): the rows moved by \(moved), the threads counted \(sample.commits) commits")
        }
        return sample
    }

    private static func isBusy(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError {
            return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        }
        if let error = error as? DBError {
            return error.kind == .busy || error.kind == .locked
        }
        return false
    }

    enum Kind: Int, CustomStringConvertible {
        case legacy = 0, bridged, migrated
        var description: String { ["legacy", "bridged", "migrated"][rawValue] }
    }

    /// The writes of one variant, on its pool and/or database.
    struct Writes: Sendable {
        var pool: DatabasePool?
        var db: SQLiteDB?
        let kinds: [Kind]

        init(pool: DatabasePool? = nil, db: SQLiteDB? = nil, kinds: [Kind]) {
            self.pool = pool
            self.db = db
            self.kinds = kinds
        }

        func commit(_ kind: Kind) throws {
            switch kind {
            case .legacy:
                try pool!.write { database in try database.execute(sql: AdoptionWritersBenchmark.tickSQL(1)) }
            case .bridged:
                let db = self.db!
                try pool!.write { database in
                    let tx = try db.writeTransaction(bridging: database)
                    try SQLiteDB.shimOnlyBridge(tx).execute(sql: AdoptionWritersBenchmark.tickSQL(2))
                }
            case .migrated:
                let db: any DB = self.db!
                try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: AdoptionWritersBenchmark.tickSQL(3)) }
            }
        }

        /// The three rows' counters.
        func ticks() throws -> [Int] {
            let sql = "SELECT n FROM tick ORDER BY id"
            if let pool {
                return try pool.read { database in try Int.fetchAll(database, sql: sql) }
            }
            let db: any DB = self.db!
            return try db.read { tx in try Int.fetchAll(SQLiteDB.shimOnlyBridge(tx), sql: sql) }
        }
    }
}

/// The shared state of one window of ``AdoptionWritersBenchmark``.
final class WritersRun: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let state: Mutex<(commits: [Int], busyErrors: Int, failure: String?)>

    init(threads: Int) {
        state = Mutex((commits: [0, 0, 0], busyErrors: 0, failure: nil))
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .relaxed) }

    func record(_ failure: String) {
        state.withLock { state in state.failure = state.failure ?? failure }
    }

    func finish(_ thread: Int, commits: [Int], busyErrors: Int) {
        state.withLock { state in
            for kind in 0..<3 { state.commits[kind] += commits[kind] }
            state.busyErrors += busyErrors
        }
    }

    func sample(seconds: Double, label: String) throws -> AdoptionWritersBenchmark.Sample {
        try state.withLock { state in
            if let failure = state.failure {
                throw BenchFailure("\(label): \(failure)")
            }
            return AdoptionWritersBenchmark.Sample(commits: state.commits, busyErrors: state.busyErrors, seconds: seconds)
        }
    }
}
