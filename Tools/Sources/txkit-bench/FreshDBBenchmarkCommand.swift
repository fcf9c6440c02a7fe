import ArgumentParser
import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// `txkit-bench fresh-db`: runs the `fresh_test_db` benchmark alone and
/// prints each variant's median, range and ratio to `empty_connection`.
///
/// `txkit-bench` runs the same benchmark among the others. Run it in
/// release mode: `swift run -c release --package-path Tools txkit-bench fresh-db`.
struct FreshDBBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fresh-db",
        abstract: "Measure the cost of a fresh test database, per strategy, alone."
    )

    @Flag(help: "Fewer, smaller samples (a smoke run; figures are rough).")
    var quick = false

    func run() throws {
        #if DEBUG
        print("warning: a debug build; run `swift run -c release --package-path Tools txkit-bench fresh-db` for meaningful figures")
        #endif
        let results = try FreshTestDBBenchmark.run(quick: quick)
        let medians = results.map { median($0.nanosecondsPerOp) }
        let floor = zip(results, medians).first { $0.0.variant == "empty_connection" }?.1
        print("fresh_test_db: per-database cost (make, first query, drop); 20 tables, 30 migrations")
        print(pad("variant", 28) + pad("median", 12) + pad("min-max", 24) + "ratio to empty_connection")
        for (result, median) in zip(results, medians) {
            let range = "\(format(result.nanosecondsPerOp.min() ?? 0)) - \(format(result.nanosecondsPerOp.max() ?? 0))"
            let ratio = floor.map { String(format: "%.2fx", median / $0) } ?? "-"
            print(pad(result.variant, 28) + pad(format(median), 12) + pad(range, 24) + ratio)
        }
        let migrated = try DatabaseQueue()
        try SyntheticSchema.migrator().migrate(migrated)
        let (imageBytes, objects) = try migrated.read { db in
            (try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0)
        }
        print("template image: \(imageBytes / 1024) KiB; schema objects SQLite parses at a copy's first query: \(objects)")
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func format(_ nanoseconds: Double) -> String {
        nanoseconds >= 1_000_000
            ? String(format: "%.2f ms", nanoseconds / 1_000_000)
            : String(format: "%.1f us", nanoseconds / 1_000)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
