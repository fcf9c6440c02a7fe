import ArgumentParser

/// `txkit-bench`: TransactionKit's benchmarks, apart from the shipped `txkit`
/// tool so that the tool links neither `TransactionKitTesting` nor the
/// toolchain's Testing and XCTest libraries.
///
/// ```sh
/// swift run -c release --package-path Tools txkit-bench                  # every entry
/// swift run -c release --package-path Tools txkit-bench --quick --json b.json
/// swift run -c release --package-path Tools txkit-bench fresh-db         # one entry, in detail
/// swift run -c release --package-path Tools --traits GeneratorBenchmark txkit-bench generator  # the code generator
/// Scripts/with-postgres.sh swift run -c release --package-path Tools txkit-bench pg-faults  # PostgresDB.open failing
/// ```
@main
struct TxKitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "txkit-bench",
        abstract: "TransactionKit's benchmarks (build with -c release). See Benchmarks/README.md.",
        subcommands: [
            BenchCommand.self,
            FreshDBBenchmarkCommand.self,
            GeneratorBenchmarkCommand.self,
            PostgresFaultBenchmarkCommand.self,
        ],
        defaultSubcommand: BenchCommand.self
    )
}
