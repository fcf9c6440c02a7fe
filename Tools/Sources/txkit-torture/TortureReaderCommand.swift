#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import TransactionKit
import TransactionKitSQLite

/// `txkit-torture reader` (hidden): the reader child of
/// `txkit-torture --writers N --reader`.
///
/// Runs read transactions in a loop while the writer children commit, and
/// checks each snapshot (``TortureSnapshot``): every transaction visible is
/// complete, every writer's sequences are `1…max` without a gap, and no
/// writer's highest sequence is lower than in the previous snapshot. After
/// each snapshot it writes one line to standard output: `ok`, or
/// `violation: …` with what was wrong. The parent kills this process with
/// `SIGKILL`; it exits on its own only when orphaned.
struct TortureReaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Check snapshots while writers commit, until killed (used by `txkit-torture --reader`).",
        shouldDisplay: false
    )

    @Option(help: "The database file.")
    var path: String

    @Option(help: "The durability setting: full or normal.")
    var durability: TortureWriterCommand.Durability = .full

    func run() throws {
        let parent = getppid()
        let db = try SQLiteDB(
            path: path, migrator: ConcurrentTortureSchema.migrator,
            options: ConcurrentTortureSchema.childOptions(durability))
        var previous: [Int: Int] = [:]
        while getppid() == parent {  // Orphaned: nobody reads the reports any more.
            let snapshot = try db.read { tx in try TortureSnapshot.read(SQLiteDB.shimOnlyBridge(tx)) }
            let violations = Self.violations(in: snapshot, after: previous)
            TortureOutput.writeLine(violations.isEmpty ? "ok" : "violation: " + violations.joined(separator: "; "))
            previous.merge(snapshot.highest) { max($0, $1) }
        }
    }

    /// What is wrong with `snapshot`, given the highest sequences seen before.
    static func violations(in snapshot: TortureSnapshot, after previous: [Int: Int]) -> [String] {
        var violations: [String] = []
        if !snapshot.partial.isEmpty {
            let some = snapshot.partial.sorted().prefix(5).map(\.description).joined(separator: ", ")
            violations.append("\(snapshot.partial.count) partial transactions visible (\(some))")
        }
        violations += snapshot.gaps
        for (writer, seen) in previous.sorted(by: { $0.key < $1.key }) {
            let now = snapshot.highest[writer] ?? 0
            if now < seen {
                violations.append("writer \(writer) went back from \(seen) to \(now)")
            }
        }
        return violations
    }
}
