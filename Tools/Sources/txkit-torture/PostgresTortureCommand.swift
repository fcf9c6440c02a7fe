import ArgumentParser
import Dispatch
import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// `txkit-torture postgres`: kills the PostgreSQL server (an immediate
/// stop, as in a crash) and starts it again, in a loop, while writer tasks
/// insert rows; then checks that every write `PostgresDB` acknowledged is
/// in the table.
///
///     Scripts/with-postgres.sh swift run -c release --package-path Tools txkit-torture postgres --kills 50
///
/// It needs the server of Scripts/with-postgres.sh (`TXKIT_POSTGRES_URL`)
/// and its control script (`TXKIT_POSTGRES_CONTROL`), and runs alone on
/// it: every kill stops the shared server.
struct PostgresTortureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres",
        abstract: "Kill and restart the PostgreSQL server while tasks write; no acknowledged write may be lost.")

    @Option(help: "How many times to kill the server.")
    var kills = 50

    @Option(help: "Concurrent writer tasks.")
    var writers = 4

    @Option(help: "Writes acknowledged between two kills, at least.")
    var writesBetweenKills = 20

    @Option(help: "The seed of the pauses before each kill and restart.")
    var seed: UInt64 = 42

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["TXKIT_POSTGRES_URL"], let control = environment["TXKIT_POSTGRES_CONTROL"] else {
            throw ValidationError("run it through Scripts/with-postgres.sh (TXKIT_POSTGRES_URL, TXKIT_POSTGRES_CONTROL)")
        }
        let report = try Self.blocking { [self] in
            try await PostgresTorture(
                url: url, control: control, kills: kills, writers: writers,
                writesBetweenKills: writesBetweenKills, seed: seed
            ).run()
        }
        print(report.summary)
        if report.lost > 0 {
            throw ExitCode(1)
        }
    }

    /// Runs `operation` in a task and blocks this (main, non-pool) thread
    /// until it ends.
    static func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let box = LockedResult<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.set(.success(try await operation())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try box.get()
    }
}

/// The result of the task that ``PostgresTortureCommand/blocking(_:)`` runs.
final class LockedResult<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
    func get() throws -> T { try lock.withLock { result! }.get() }
}
