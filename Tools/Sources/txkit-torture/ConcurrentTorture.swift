#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `txkit-torture --writers N [--reader]`: several writer processes commit
/// into one WAL file at once while a reader process checks every snapshot,
/// and the parent kills them at random moments.
///
/// Each round starts `N` writer children (`txkit-torture concurrent-writer`,
/// each its own key space, see ``ConcurrentTortureSchema``) and, with
/// `--reader`, a reader child (`txkit-torture reader`). Then, `N` times, it
/// waits a random delay and `SIGKILL`s one child picked at random (the reader
/// as likely as any one writer), reaps it and starts it again; after one
/// more delay it kills them all. It then reopens the database and checks
/// (``TortureSnapshot``) that every acknowledged transaction is present,
/// none is partial, every writer's sequences are `1…max`, `PRAGMA
/// integrity_check` answers `ok`, and the reader reported no violation.
///
/// Rounds alternate between one file per durability setting, reused from
/// round to round, as in the single-writer torture.
struct ConcurrentTorture {
    typealias Key = ConcurrentTortureSchema.Key
    typealias Durability = TortureWriterCommand.Durability

    var rounds: Int
    var seed: UInt64
    var settings: [Durability]
    var maxDelay: Int
    var writers: Int
    var reader: Bool
    var workDirectory: String
    var executable: URL
    var verbose: Bool
    var sabotage: TortureWriterCommand.Sabotage?

    /// Counts of one durability setting's file.
    struct Tally {
        var rounds = 0
        var acknowledged: Set<Key> = []
        var lost: Set<Key> = []
        var partial: Set<Key> = []
        var writerKills = 0
        var readerKills = 0
        var readerChecks = 0
        var violations = 0
        var integrityFailures = 0

        mutating func absorb(_ report: RoundReport) {
            acknowledged.formUnion(report.acknowledged)
            writerKills += report.writerKills
            readerKills += report.readerKills
            readerChecks += report.readerChecks
            violations += report.violations.count
        }
    }

    /// What one round saw, before the database is checked.
    struct RoundReport {
        var acknowledged: [Key] = []
        var writerKills = 0
        var readerKills = 0
        var readerChecks = 0
        var violations: [String] = []
        var failures: [String] = []
    }

    /// Runs every round, prints the summary, and returns whether everything was clean.
    func run() -> Bool {
        var random = TortureCommand.SplitMix64(seed: seed)
        var tallies: [Durability: Tally] = [:]
        var failures: [String] = []
        for round in 1...rounds {
            let setting = settings[(round - 1) % settings.count]
            let path = workDirectory + "/torture-writers-\(setting.rawValue).sqlite"
            let label = "round \(round) (\(setting.rawValue))"
            var tally = tallies[setting] ?? Tally()
            tally.rounds += 1
            let report = runRound(path: path, setting: setting, random: &random)
            tally.absorb(report)
            failures += (report.failures + report.violations.map { "reader: \($0)" }).map { "\(label): \($0)" }
            do {
                let check = try Self.check(path: path, setting: setting, acknowledged: tally.acknowledged)
                tally.lost.formUnion(check.lost)
                tally.partial.formUnion(check.partial)
                if check.integrity != "ok" {
                    tally.integrityFailures += 1
                }
                failures += check.problems.map { "\(label): \($0)" }
                if verbose || !check.isClean || !report.violations.isEmpty || !report.failures.isEmpty {
                    print(
                        "\(label): \(report.writerKills) writer + \(report.readerKills) reader kills, "
                            + "\(report.acknowledged.count) acknowledged, \(check.present) present, "
                            + "\(check.lost.count) lost, \(check.partial.count) partial, "
                            + "\(report.readerChecks) reader checks, \(report.violations.count) violations, "
                            + "integrity \(check.integrity)")
                }
            } catch {
                tally.integrityFailures += 1
                failures.append("\(label): \(error)")
                print("\(label): FAILED: \(error)")
            }
            tallies[setting] = tally
        }
        return summarize(settings.map { tallies[$0] ?? Tally() }, failures: failures)
    }

    // MARK: - One round

    private func runRound(path: String, setting: Durability, random: inout TortureCommand.SplitMix64) -> RoundReport {
        var report = RoundReport()
        var writerChildren: [TortureChild?] = (1...writers).map { start(writer: $0, path: path, setting: setting, report: &report) }
        var readerChild = reader ? startReader(path: path, setting: setting, report: &report) : nil
        for _ in 0..<writers {
            pause(milliseconds: Int.random(in: 0...maxDelay, using: &random))
            let victim = Int.random(in: 0...(reader ? writers : writers - 1), using: &random)
            if victim == writers {
                readerChild.map { absorbReader($0.kill(), into: &report) }
                readerChild = startReader(path: path, setting: setting, report: &report)
            } else {
                writerChildren[victim].map { absorbWriter(victim + 1, $0.kill(), into: &report) }
                writerChildren[victim] = start(writer: victim + 1, path: path, setting: setting, report: &report)
            }
        }
        pause(milliseconds: Int.random(in: 0...maxDelay, using: &random))
        for (index, child) in writerChildren.enumerated() {
            child.map { absorbWriter(index + 1, $0.kill(), into: &report) }
        }
        readerChild.map { absorbReader($0.kill(), into: &report) }
        return report
    }

    private func start(writer: Int, path: String, setting: Durability, report: inout RoundReport) -> TortureChild? {
        let arguments = [
            "concurrent-writer", "--path", path, "--writer", "\(writer)", "--durability", setting.rawValue,
        ] + (sabotage.map { ["--sabotage", $0.rawValue] } ?? [])
        do {
            return try TortureChild(executable: executable, arguments: arguments)
        } catch {
            report.failures.append("cannot start writer \(writer): \(error)")
            return nil
        }
    }

    private func startReader(path: String, setting: Durability, report: inout RoundReport) -> TortureChild? {
        do {
            return try TortureChild(
                executable: executable,
                arguments: ["reader", "--path", path, "--durability", setting.rawValue])
        } catch {
            report.failures.append("cannot start the reader: \(error)")
            return nil
        }
    }

    private func absorbWriter(_ writer: Int, _ ending: TortureChild.Ending, into report: inout RoundReport) {
        if ending.wasKilled {
            report.writerKills += 1
        } else {
            report.failures.append("writer \(writer) ended on its own (status \(ending.status)): \(ending.errorText)")
        }
        for line in ending.lines {
            guard let sequence = Int(line) else {
                report.failures.append("writer \(writer): unexpected output line: \(line)")
                continue
            }
            report.acknowledged.append(Key(writer: writer, sequence: sequence))
        }
    }

    private func absorbReader(_ ending: TortureChild.Ending, into report: inout RoundReport) {
        if ending.wasKilled {
            report.readerKills += 1
        } else {
            report.failures.append("the reader ended on its own (status \(ending.status)): \(ending.errorText)")
        }
        for line in ending.lines {
            if line == "ok" {
                report.readerChecks += 1
            } else if line.hasPrefix("violation: ") {
                report.readerChecks += 1
                report.violations.append(String(line.dropFirst("violation: ".count)))
            } else {
                report.failures.append("reader: unexpected output line: \(line)")
            }
        }
    }

    private func pause(milliseconds: Int) {
        usleep(useconds_t(milliseconds) * 1000)
    }
}
