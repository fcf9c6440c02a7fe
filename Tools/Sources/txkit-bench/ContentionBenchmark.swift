import Foundation
import GRDB
import Synchronization
import TransactionKit
import TransactionKitSQLite

/// Read throughput under contention: 1, 2 and 4 reader threads doing point
/// reads (one read transaction each, as in `point_read_tx`) while one writer
/// thread commits small transactions (one `UPDATE` of one row), for
/// `sqlite_c` (one connection per thread), `grdb` (one `DatabasePool`) and
/// `sqlitedb` (one `SQLiteDB`).
///
/// One sample is one window of ``window`` with every thread running; the
/// rounds interleave the variants. It reports three entries with the same
/// variant names (`<variant>_<readers>r`): `contended_reads` (reads per
/// second, all reader threads together), `contended_commits` (the writer's
/// commits per second) and `contended_read_p99` (the 99th percentile of one
/// read's latency, in nanoseconds).
struct ContentionBenchmark {
    let settings: BenchSettings
    let rounds: Int
    let window: Duration

    private static let readerCounts = [1, 2, 4]
    private static let variants = ["sqlite_c", "grdb", "sqlitedb"]
    private static let rowCount: Int64 = 1_000

    /// What one window measured.
    struct Sample {
        var readsPerSecond: Double
        var commitsPerSecond: Double
        var p99Nanoseconds: Double
    }

    func run() throws -> [BenchEntryResult] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-contention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let targets = try ContentionTargets(directory: directory, settings: settings, rowCount: Self.rowCount)

        var samples: [String: [Sample]] = [:]
        for _ in 0..<rounds {
            for readers in Self.readerCounts {
                for variant in Self.variants {
                    let sample = try measure(variant: variant, readers: readers, targets: targets)
                    samples["\(variant)_\(readers)r", default: []].append(sample)
                }
            }
        }
        let names = Self.readerCounts.flatMap { readers in Self.variants.map { "\($0)_\(readers)r" } }
        let ratios = Self.readerCounts.flatMap { readers in
            [("sqlitedb_\(readers)r", "grdb_\(readers)r"), ("sqlitedb_\(readers)r", "sqlite_c_\(readers)r")]
        }
        func entry(_ name: String, unit: String, note: String, _ value: (Sample) -> Double) -> BenchEntryResult {
            BenchEntryResult(
                name: name, unit: unit, note: note,
                variants: names.map { BenchVariantResult(name: $0, samples: samples[$0]!.map(value)) },
                ratios: ratios)
        }
        let setting = "N reader threads doing point reads (one read transaction each) while one writer thread commits one-row UPDATEs, \(window) windows; sqlite_c = one connection per thread"
        return [
            entry("contended_reads", unit: "reads/s", note: setting + "; all readers together", \.readsPerSecond),
            entry("contended_commits", unit: "commits/s", note: setting + "; the writer's commits", \.commitsPerSecond),
            entry("contended_read_p99", unit: "ns", note: setting + "; 99th percentile of one read", \.p99Nanoseconds),
        ]
    }

    private func measure(variant: String, readers: Int, targets: ContentionTargets) throws -> Sample {
        let readFunctions = try (0..<readers).map { _ in try targets.reader(variant) }
        let commit = try targets.writer(variant)
        let run = ContentionRun(readers: readers)
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()

        for (index, read) in readFunctions.enumerated() {
            group.enter()
            Thread {
                defer { group.leave() }
                start.wait()
                var latencies: [UInt64] = []
                latencies.reserveCapacity(400_000)
                var step = Int64(index * 331)
                while !run.isStopped {
                    let id = (step &* 7919) % Self.rowCount + 1
                    step += 1
                    let began = DispatchTime.now().uptimeNanoseconds
                    do {
                        let value = try read(id)
                        if value != id * 3 { run.record("read of \(id) returned \(String(describing: value))") }
                    } catch {
                        run.record("\(error)")
                    }
                    latencies.append(DispatchTime.now().uptimeNanoseconds - began)
                }
                run.finishReader(index, latencies)
            }.start()
        }
        group.enter()
        Thread {
            defer { group.leave() }
            start.wait()
            var count = 0
            while !run.isStopped {
                do {
                    try commit()
                    count += 1
                } catch {
                    run.record("\(error)")
                }
            }
            run.finishWriter(count)
        }.start()

        let began = ContinuousClock.now
        for _ in 0...readers { start.signal() }
        let (seconds, attoseconds) = window.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        run.stop()
        group.wait()
        let elapsed = BenchHarness.nanoseconds(began.duration(to: .now)) / 1e9
        return try run.sample(seconds: elapsed, label: "\(variant) with \(readers) readers")
    }
}

/// The shared state of one window: the stop flag, each thread's results,
/// and the first error (which stops the run: the numbers would mean
/// nothing).
final class ContentionRun: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let state: Mutex<(latencies: [[UInt64]], commits: Int, failure: String?)>

    init(readers: Int) {
        state = Mutex((latencies: Array(repeating: [], count: readers), commits: 0, failure: nil))
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .relaxed) }

    func record(_ failure: String) {
        state.withLock { state in state.failure = state.failure ?? failure }
    }

    func finishReader(_ index: Int, _ latencies: [UInt64]) {
        state.withLock { $0.latencies[index] = latencies }
    }

    func finishWriter(_ commits: Int) {
        state.withLock { $0.commits = commits }
    }

    func sample(seconds: Double, label: String) throws -> ContentionBenchmark.Sample {
        try state.withLock { state in
            if let failure = state.failure {
                throw BenchFailure("\(label): \(failure)")
            }
            let all = state.latencies.flatMap { $0 }.sorted()
            guard !all.isEmpty else { throw BenchFailure("\(label): no read completed") }
            return ContentionBenchmark.Sample(
                readsPerSecond: Double(all.count) / seconds,
                commitsPerSecond: Double(state.commits) / seconds,
                p99Nanoseconds: Double(all[min(all.count - 1, all.count * 99 / 100)]))
        }
    }
}
