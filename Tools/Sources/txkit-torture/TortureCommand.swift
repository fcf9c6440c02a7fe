#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// `txkit-torture`: proves that no acknowledged write is lost when the
/// writing process is killed.
///
/// Each round starts a writer child (`txkit-torture writer`, this very
/// executable) that commits numbered transactions into a file `SQLiteDB` and
/// prints each number once `write` returned. After a random delay the parent
/// sends `SIGKILL`, reopens the database (which recovers the WAL the child
/// left behind) and checks that:
///
/// - every acknowledged transaction is present (otherwise it is *lost*);
/// - every transaction present has all of its rows in all three tables, and
///   no row exists without its transaction (otherwise it is *partial*);
/// - the transactions present are exactly 1...n, without a gap;
/// - `PRAGMA integrity_check` answers `ok`.
///
/// Rounds alternate between two database files, one per durability setting
/// (`--durability both`, the default), and each file is reused from round to
/// round, so that later children also recover from earlier kills.
///
/// The last line is `torture: R rounds, A acknowledged, L lost, P partial`;
/// the exit status is non-zero when anything was lost or partial, or when a
/// check failed.
///
/// With `--writers N` and/or `--reader`, the rounds run several writer
/// processes at once and a reader process that checks every snapshot
/// instead (``ConcurrentTorture``).
///
/// `txkit-torture run`, the default subcommand of ``TxkitTorture``.
struct TortureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Kill a writer process at random moments and check that no acknowledged transaction is lost."
    )

    /// Which durability settings the rounds cover.
    enum Coverage: String, CaseIterable, ExpressibleByArgument {
        case full
        case normal
        case both

        var settings: [TortureWriterCommand.Durability] {
            switch self {
            case .full: [.full]
            case .normal: [.normal]
            case .both: [.full, .normal]
            }
        }
    }

    @Option(help: "Number of rounds (one killed writer each).")
    var rounds = 40

    @Option(help: "Seed of the random kill delays (default: random; printed for reproduction).")
    var seed: UInt64?

    @Option(help: "Durability settings to cover: full, normal or both (rounds alternate).")
    var durability: Coverage = .both

    @Option(help: "Longest delay, in milliseconds, between starting a writer and killing it.")
    var maxDelay = 250

    @Option(help: "Keep the databases in this directory instead of a temporary one.")
    var directory: String?

    @Option(help: "Run this many writer processes at once, each in its own key space (default: the single-writer torture).")
    var writers: Int?

    @Flag(help: "Also run a reader process that checks every snapshot while the writers commit.")
    var reader = false

    @Flag(help: "The writer adopts its own GRDB pool and alternates migrated and bridged legacy writes (single writer).")
    var adopt = false

    @Flag(help: "Print one line per round.")
    var verbose = false

    @Option(help: ArgumentHelp("Make the writer buggy on purpose, to see the checks fail.", visibility: .hidden))
    var sabotage: TortureWriterCommand.Sabotage?

    func validate() throws {
        guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
        guard maxDelay > 0 else { throw ValidationError("--max-delay must be positive") }
        guard writers.map({ $0 > 0 }) ?? true else { throw ValidationError("--writers must be positive") }
        guard !adopt || (writers == nil && !reader && sabotage == nil) else {
            throw ValidationError("--adopt runs the single-writer torture: leave out --writers, --reader and --sabotage")
        }
    }

    func run() throws {
        let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        var random = SplitMix64(seed: seed)
        let workDirectory = try makeWorkDirectory()
        let executable = try Self.currentExecutable()
        if writers != nil || reader {
            try runConcurrent(seed: seed, workDirectory: workDirectory, executable: executable)
            return
        }
        print("torture: seed \(seed), \(rounds) rounds, durability \(durability.rawValue)\(adopt ? ", writer on an adopted pool (migrated and bridged writes)" : ""), databases in \(workDirectory)")

        var tallies: [TortureWriterCommand.Durability: Tally] = [:]
        var failures: [String] = []

        for round in 1...rounds {
            let setting = durability.settings[(round - 1) % durability.settings.count]
            let path = workDirectory + "/torture-\(setting.rawValue).sqlite"
            let delay = Int.random(in: 0...maxDelay, using: &random)
            tallies[setting, default: Tally()].rounds += 1
            let label = "round \(round) (\(setting.rawValue))"
            do {
                let acknowledged = try runRound(
                    executable: executable, path: path, setting: setting, delayMilliseconds: delay)
                tallies[setting, default: Tally()].record(acknowledged)
                // The file is reused from round to round: check every
                // transaction ever acknowledged in it, not only this round's.
                let check = try Self.check(path: path, setting: setting, acknowledged: tallies[setting]!.acknowledgedIDs)
                tallies[setting]!.lostIDs.formUnion(check.lost)
                tallies[setting]!.partialIDs.formUnion(check.partial)
                failures += check.problems.map { "\(label): \($0)" }
                if verbose || !check.isClean {
                    print(
                        "\(label): killed after \(delay) ms, \(acknowledged.count) acknowledged, "
                            + "\(check.present) present, \(check.lost.count) lost, \(check.partial.count) partial, "
                            + "integrity \(check.integrity)")
                }
            } catch {
                failures.append("\(label): \(error)")
                print("\(label): FAILED: \(error)")
            }
        }

        let all = durability.settings.map { tallies[$0] ?? Tally() }
        let (totalRounds, totalAcknowledged) = (all.map(\.rounds).reduce(0, +), all.map(\.acknowledged).reduce(0, +))
        let (totalLost, totalPartial) = (all.map(\.lost).reduce(0, +), all.map(\.partial).reduce(0, +))
        for setting in durability.settings {
            let tally = tallies[setting] ?? Tally()
            print(
                "durability \(setting.rawValue): \(tally.rounds) rounds, \(tally.acknowledged) acknowledged, "
                    + "\(tally.lost) lost, \(tally.partial) partial")
        }
        for failure in failures {
            print("error: \(failure)")
        }
        let failed = totalLost != 0 || totalPartial != 0 || !failures.isEmpty
        if failed {
            print("torture: the databases are kept in \(workDirectory) for inspection (seed \(seed))")
        } else if directory == nil {
            try? FileManager.default.removeItem(atPath: workDirectory)
        }
        print("torture: \(totalRounds) rounds, \(totalAcknowledged) acknowledged, \(totalLost) lost, \(totalPartial) partial")
        if failed {
            throw ExitCode.failure
        }
    }

    /// The variant with several writers and a reader (``ConcurrentTorture``).
    private func runConcurrent(seed: UInt64, workDirectory: String, executable: URL) throws {
        let torture = ConcurrentTorture(
            rounds: rounds, seed: seed, settings: durability.settings, maxDelay: maxDelay, writers: writers ?? 1,
            reader: reader, workDirectory: workDirectory, executable: executable, verbose: verbose,
            sabotage: sabotage)
        print(
            "torture: seed \(seed), \(rounds) rounds, \(torture.writers) writers\(reader ? " + reader" : ""), "
                + "durability \(durability.rawValue), databases in \(workDirectory)")
        guard torture.run() else {
            throw ExitCode.failure
        }
        if directory == nil {
            try? FileManager.default.removeItem(atPath: workDirectory)
        }
    }

    // MARK: - One round

    private struct RoundError: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts a writer, kills it after `delayMilliseconds`, and returns the
    /// transaction numbers it acknowledged.
    private func runRound(
        executable: URL,
        path: String,
        setting: TortureWriterCommand.Durability,
        delayMilliseconds: Int
    ) throws -> [Int] {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["writer", "--path", path, "--durability", setting.rawValue]
            + (sabotage.map { ["--sabotage", $0.rawValue] } ?? [])
            + (adopt ? ["--adopt"] : [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice

        // Read both pipes to their end on other threads, so that the child
        // never blocks on a full pipe. The ends come when the child dies.
        let collected = PipeCollector(output: output, errors: errors)
        try process.run()
        collected.start()
        usleep(useconds_t(delayMilliseconds) * 1000)
        let wasRunning = process.isRunning
        if wasRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        let (stdout, stderr) = collected.wait()

        guard wasRunning, process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw RoundError(
                description: "the writer ended on its own (status \(process.terminationStatus)): "
                    + String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // Only complete lines count: a number is acknowledged once its
        // newline was written.
        var text = String(decoding: stdout, as: UTF8.self)
        if let lastNewline = text.lastIndex(of: "\n") {
            text = String(text[...lastNewline])
        } else {
            text = ""
        }
        var acknowledged: [Int] = []
        for line in text.split(separator: "\n") {
            guard let number = Int(line) else {
                throw RoundError(description: "unexpected writer output line: \(line)")
            }
            acknowledged.append(number)
        }
        return acknowledged
    }

    // MARK: - Checking a database

    /// What one check of a database found.
    typealias Check = TortureCheck<Int>

    /// Reopens the database at `path` and checks every transaction in it.
    static func check(path: String, setting: TortureWriterCommand.Durability, acknowledged: Set<Int>) throws -> Check {
        let db = try SQLiteDB(path: path, migrator: TortureWriterCommand.migrator, options: setting.options)
        return try db.read { tx in
            let db = try SQLiteDB.shimOnlyBridge(tx)
            var check = Check()
            try check.checkIntegrity(db)

            var itemCounts: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, itemCount FROM torture_txn") {
                itemCounts[row[0]] = row[1]
            }
            check.present = itemCounts.count
            check.lost = acknowledged.subtracting(itemCounts.keys)

            // Every transaction present must have all its items with the
            // right payloads, and its ledger row; no orphan row may exist.
            var itemsFound: [Int: Int] = [:]
            let items = try Row.fetchCursor(db, sql: "SELECT txn, position, payload FROM torture_item")
            while let row = try items.next() {
                let number: Int = row[0]
                let position: Int = row[1]
                let payload: String = row[2]
                itemsFound[number, default: 0] += 1
                if itemCounts[number] == nil
                    || payload != TortureWriterCommand.payload(of: number, position: position)
                    || position >= TortureWriterCommand.itemCount(of: number)
                {
                    check.partial.insert(number)
                }
            }
            var ledgerFound: Set<Int> = []
            for row in try Row.fetchAll(db, sql: "SELECT txn, amount FROM torture_ledger") {
                let number: Int = row[0]
                ledgerFound.insert(number)
                if itemCounts[number] == nil || row[1] != TortureWriterCommand.amount(of: number) {
                    check.partial.insert(number)
                }
            }
            for (number, count) in itemCounts {
                if count != TortureWriterCommand.itemCount(of: number)
                    || itemsFound[number] != count
                    || !ledgerFound.contains(number)
                {
                    check.partial.insert(number)
                }
            }

            // The writer commits 1, 2, 3, … in order: a gap would mean that a
            // committed transaction vanished while a later one survived.
            if let highest = itemCounts.keys.max(), highest != itemCounts.count {
                check.problems.append("the transactions present are not 1...\(highest): \(itemCounts.count) present")
            }
            return check
        }
    }

    // MARK: - Helpers

    private func makeWorkDirectory() throws -> String {
        if let directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return directory
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-torture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// This executable, to start the writer child with.
    static func currentExecutable() throws -> URL {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #endif
        if let path = Bundle.main.executablePath {
            return URL(fileURLWithPath: path)
        }
        let argument = CommandLine.arguments[0]
        guard argument.contains("/") else {
            throw ValidationError("cannot locate the txkit-torture executable from \(argument)")
        }
        return URL(fileURLWithPath: argument)
    }

    /// Counts of one durability setting, or of the whole run.
    struct Tally {
        var rounds = 0
        var acknowledged = 0
        var acknowledgedIDs: Set<Int> = []
        /// Acknowledged transactions found missing, each counted once.
        var lostIDs: Set<Int> = []
        /// Transactions found with some rows missing or wrong, each counted once.
        var partialIDs: Set<Int> = []
        var lost: Int { lostIDs.count }
        var partial: Int { partialIDs.count }

        mutating func record(_ numbers: [Int]) {
            acknowledged += numbers.count
            acknowledgedIDs.formUnion(numbers)
        }
    }
}
