import ArgumentParser
import Foundation
import TransactionKitSQLite

/// `txkit-bench run` (the default command): what the abstraction costs, side by side with raw SQLite
/// and plain GRDB, in one process and one run.
///
/// Build in release mode (`swift run -c release --package-path Tools txkit-bench`): a debug build
/// measures the compiler's debug code, not the library. Method and settings
/// are in Benchmarks/README.md.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Measure TransactionKit against raw SQLite and plain GRDB (build with -c release).",
        discussion: """
            Prints a table of medians (ns/op) with their min-max spread and the \
            per-round ratios SQLiteDB/GRDB and GRDB/sqlite_c. Variants of an entry \
            are measured interleaved, in the same rounds. See Benchmarks/README.md.
            """
    )

    @Flag(help: "A short run for smoke checks (5 rounds of ~4 ms samples).")
    var quick = false

    @Option(help: ArgumentHelp("Also write the results as JSON to this path.", valueName: "path"))
    var json: String?

    @Option(help: "The synchronous level of every file database: full (SQLiteDB's default) or normal.")
    var durability: DurabilityArgument = .full

    @Option(help: ArgumentHelp(
        "Timed rounds per entry (default: 61, or 5 with --quick); more rounds, steadier medians.",
        valueName: "count"))
    var rounds: Int?

    @Option(help: ArgumentHelp(
        "Run only these entries (comma-separated names, e.g. empty_write_tx,point_read_tx).", valueName: "names"))
    var only: String?

    enum DurabilityArgument: String, ExpressibleByArgument, CaseIterable {
        case full
        case normal
    }

    func run() throws {
        var settings = BenchSettings()
        settings.durability = durability == .full ? .full : .normal
        let selected = only.map { Set($0.split(separator: ",").map(String.init)) }
        func wanted(_ name: String) -> Bool { selected?.contains(name) ?? true }

        #if DEBUG
        print("warning: this is a debug build; use `swift run -c release --package-path Tools txkit-bench` for meaningful numbers")
        #endif
        var harness = BenchHarness.make(quick: quick)
        if let rounds {
            guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
            harness.rounds = rounds
        }
        let started = ContinuousClock.now
        var results: [BenchEntryResult] = []

        let transactions = try TransactionBenchmarks(settings: settings)
        for entry in transactions.all where wanted(entry.name) {
            results.append(try harness.measure(entry))
            print("measured \(entry.name)")
        }

        let keyValues = try KeyValueStoreBenchmarks(settings: settings)
        for entry in keyValues.all where wanted(entry.name) {
            results.append(try harness.measure(entry))
            print("measured \(entry.name)")
        }

        if !AdoptionBenchmarks.entryNames.filter(wanted).isEmpty {
            let adoption = try AdoptionBenchmarks(settings: settings)
            for entry in adoption.all where wanted(entry.name) {
                results.append(try harness.measure(entry))
                print("measured \(entry.name)")
            }
        }

        if !AdoptionWritersBenchmark.entryNames.filter(wanted).isEmpty {
            let writers = AdoptionWritersBenchmark(
                settings: settings, rounds: quick ? 2 : 7, window: quick ? .milliseconds(100) : .milliseconds(250))
            results.append(contentsOf: try writers.run())
            print("measured adopted_mixed_writes, adopted_mixed_busy_errors")
        }

        if wanted("fresh_test_db") {
            let samples = try FreshTestDBBenchmark.run(quick: quick)
            results.append(BenchEntryResult(
                name: "fresh_test_db",
                unit: "ns/op",
                note: "ns per fresh test database, 20 tables / 30 migrations; values from FreshTestDBBenchmark",
                variants: samples.map { BenchVariantResult(name: $0.variant, samples: $0.nanosecondsPerOp) },
                ratios: [
                    ("migrate_each", "empty_connection"),
                    ("template_clone", "empty_connection"),
                    ("template_backup", "empty_connection"),
                    ("rollback_per_test", "empty_connection"),
                    ("template_clone_open_only", "empty_connection_open_only"),
                    ("template_clone", "migrate_each"),
                ]))
            print("measured fresh_test_db")
        }

        if wanted("contended_reads") || wanted("contended_commits") || wanted("contended_read_p99") {
            let contention = ContentionBenchmark(
                settings: settings, rounds: quick ? 2 : 7, window: quick ? .milliseconds(100) : .milliseconds(250))
            results.append(contentsOf: try contention.run())
            print("measured contended_reads, contended_commits, contended_read_p99")
        }

        if wanted("mockdb_manager_tests") {
            results.append(try harness.measure(ManagerBenchmark.entry))
            print("measured mockdb_manager_tests")
        }

        let postgres = try measurePostgres(harness: harness, wanted: wanted)
        results += postgres?.results ?? []

        var reportSettings = [
            "build": Self.buildMode,
            "run": quick
                ? "--quick: \(harness.rounds) interleaved rounds, ~\(harness.sampleTarget) per sample"
                : "full: \(harness.rounds) interleaved rounds, ~\(harness.sampleTarget) per sample",
            "settings": settings.summary,
            "effective pragmas": try transactions.effectiveSettings(),
            "elapsed": String(format: "%.1f s", BenchHarness.nanoseconds(started.duration(to: .now)) / 1e9),
        ]
        reportSettings["postgres"] = postgres?.summary
        let report = BenchReport(results: results, settings: reportSettings)
        print("")
        print(report.table)
        if let json {
            try report.json().write(to: URL(fileURLWithPath: json))
            print("\nwrote \(json)")
        }
    }

    private static var buildMode: String {
        #if DEBUG
        "debug (numbers are not meaningful)"
        #else
        "release"
        #endif
    }
}
