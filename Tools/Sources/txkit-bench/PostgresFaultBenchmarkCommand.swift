import ArgumentParser
import Foundation
import Logging
import TransactionKit
import TransactionKitPostgres

/// `txkit-bench pg-faults`: how long `PostgresDB.open` takes to fail, for
/// each cause, against the bound its documentation promises (the connect
/// timeout plus one second).
///
/// Cases, run in turn for `--rounds` rounds:
/// - `open_refused`: 127.0.0.1 at a port bound by this process and never
///   listened on, so every connection is refused;
/// - `open_wrong_password`: the server of `TXKIT_POSTGRES_URL` with a
///   password it refuses (skipped without that variable).
///
/// Each failure must be the `connectionFailed` `DBError` of `open`, or the
/// command fails. Run it beside a loaded machine to see what users see
/// then (a separate process: its own cooperative pool):
///
/// ```sh
/// Scripts/with-postgres.sh swift run -c release --package-path Tools txkit-bench pg-faults
/// ```
struct PostgresFaultBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pg-faults",
        abstract: "Time PostgresDB.open failing on a refused connection and on a refused password."
    )

    @Option(help: "Rounds of each case; the report gives the median, 90th percentile and maximum.")
    var rounds = 20

    @Option(help: "The pause between two rounds, in milliseconds (spreads the rounds over a longer run).")
    var pauseMs = 100

    @Option(help: "PostgresDB.Configuration.connectTimeout, in seconds.")
    var connectTimeout = 2

    func run() throws {
        #if DEBUG
        print("warning: a debug build; run `swift run -c release --package-path Tools txkit-bench pg-faults`")
        #endif
        let timeout = Duration.seconds(connectTimeout)
        let bound = timeout + .seconds(1)
        let port = try RefusingPort()
        defer { port.close() }
        var cases: [(name: String, configuration: PostgresDB.Configuration)] = []
        var refused = PostgresDB.Configuration(
            host: "127.0.0.1", port: port.port, username: "txkit", password: "refused", database: "txkit")
        refused.connectTimeout = timeout
        cases.append(("open_refused", refused))
        let url = ProcessInfo.processInfo.environment[PostgresBenchTargets.environmentKey] ?? ""
        if url.isEmpty {
            print("open_wrong_password skipped: \(PostgresBenchTargets.environmentKey) is not set")
        } else {
            var wrongPassword = try PostgresDB.Configuration(url: url)
            wrongPassword.password = "not-the-password-\(UUID().uuidString)"
            wrongPassword.connectTimeout = timeout
            cases.append(("open_wrong_password", wrongPassword))
        }

        let samples = try BlockingAwait.run { [cases, rounds, pauseMs] in
            try await Self.measure(cases, rounds: rounds, pause: .milliseconds(pauseMs))
        }
        print("pg_faults: PostgresDB.open until it throws; connectTimeout \(connectTimeout) s, "
            + "bound \(Self.milliseconds(bound)) (connectTimeout + 1 s); \(rounds) rounds of each case")
        print(pad("case", 22) + pad("median", 12) + pad("p90", 12) + pad("max", 12) + "over bound")
        for (name, _) in cases {
            let sorted = samples[name]!.durations.sorted()
            let over = sorted.filter { $0 > bound }.count
            print(pad(name, 22) + pad(Self.milliseconds(sorted[sorted.count / 2]), 12)
                + pad(Self.milliseconds(sorted[min(sorted.count - 1, sorted.count * 9 / 10)]), 12)
                + pad(Self.milliseconds(sorted.last!), 12) + "\(over)/\(sorted.count)")
        }
        for (name, _) in cases {
            print("\(name): \(samples[name]!.error)")
        }
    }

    /// Each case's durations and its last error, the rounds interleaved.
    private static func measure(
        _ cases: [(name: String, configuration: PostgresDB.Configuration)], rounds: Int, pause: Duration
    ) async throws -> [String: (durations: [Duration], error: DBError)] {
        var logger = Logger(label: "txkit-bench.pg-faults")
        logger.logLevel = .critical
        let clock = ContinuousClock()
        var samples: [String: (durations: [Duration], error: DBError)] = [:]
        for _ in 0..<max(rounds, 1) {
            for (name, configuration) in cases {
                let started = clock.now
                let error: DBError
                do {
                    let db = try await PostgresDB.open(configuration, logger: logger)
                    await db.close()
                    throw ValidationError("\(name): PostgresDB.open succeeded")
                } catch let thrown as DBError where thrown.kind == .connectionFailed && thrown.operation == .open {
                    error = thrown
                }
                let duration = clock.now - started
                samples[name, default: ([], error)].durations.append(duration)
                samples[name]!.error = error
                try await Task.sleep(for: pause)
            }
        }
        return samples
    }

    /// `12.3 ms`.
    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f ms", (Double(seconds) + Double(attoseconds) / 1e18) * 1_000)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
