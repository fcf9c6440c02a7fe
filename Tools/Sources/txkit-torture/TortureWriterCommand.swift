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

/// `txkit-torture writer` (hidden): the child process of `txkit-torture`.
///
/// Opens the file database at `--path` with the requested durability, then
/// commits numbered transactions forever, continuing after the highest number
/// already in the file. Transaction `n` writes one row in `torture_txn`,
/// ``itemCount(of:)`` rows in `torture_item` and one row in `torture_ledger`:
/// all of them or none must survive a crash.
///
/// The number `n` is written to standard output (one line, with a single
/// unbuffered `write(2)`) only after `write` returned, so every number the
/// parent reads is an acknowledged commit. The parent kills this process with
/// `SIGKILL` at a random moment; it never exits on its own, except when it is
/// orphaned (the parent died) or after `--limit` transactions.
struct TortureWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writer",
        abstract: "Commit numbered transactions until killed (used by `txkit-torture`).",
        shouldDisplay: false
    )

    /// The durability settings the torture test covers.
    enum Durability: String, CaseIterable, ExpressibleByArgument, Sendable {
        case full
        case normal

        var sqliteDurability: SQLiteDB.Durability {
            switch self {
            case .full: .full
            case .normal: .normal
            }
        }

        var options: SQLiteDB.Options {
            var options = SQLiteDB.Options()
            options.durability = sqliteDurability
            return options
        }
    }

    @Option(help: "The database file.")
    var path: String

    @Option(help: "The durability setting: full or normal.")
    var durability: Durability = .full

    @Option(help: "Stop after this many transactions (default: never).")
    var limit: Int?

    /// Deliberate bugs that show the parent's checks can fail.
    enum Sabotage: String, CaseIterable, ExpressibleByArgument, Sendable {
        /// Acknowledge each number before its write (lost transactions).
        case acknowledgeEarly = "acknowledge-early"
        /// Commit each transaction in two separate writes (partial transactions).
        case splitTransactions = "split-transactions"
    }

    @Option(help: ArgumentHelp("Introduce a deliberate bug, to check the checker.", visibility: .hidden))
    var sabotage: Sabotage?

    @Flag(help: "Open the file as an app would (its own GRDB pool), adopt the pool, and alternate migrated and bridged legacy writes.")
    var adopt = false

    func run() throws {
        if adopt {
            return try runAdopted()
        }
        let parent = getppid()
        let db = try SQLiteDB(path: path, migrator: Self.migrator, options: durability.options)
        let first = try db.read { tx in
            try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM torture_txn") ?? 1
        }
        var number = first
        while limit.map({ number - first < $0 }) ?? true {
            switch sabotage {
            case nil:
                try db.write { tx in
                    try Self.insertTransaction(number, SQLiteDB.shimOnlyBridge(tx))
                }
                // Acknowledge only now that `write` returned.
                Self.acknowledge(number)
            case .acknowledgeEarly:
                Self.acknowledge(number)
                try db.write { tx in try Self.insertTransaction(number, SQLiteDB.shimOnlyBridge(tx)) }
            case .splitTransactions:
                try db.write { tx in try Self.insertTransaction(number, SQLiteDB.shimOnlyBridge(tx), part: 0) }
                try db.write { tx in try Self.insertTransaction(number, SQLiteDB.shimOnlyBridge(tx), part: 1) }
                Self.acknowledge(number)
            }
            number += 1
            if getppid() != parent {
                return  // Orphaned: nobody reads the acknowledgements any more.
            }
        }
    }

    /// Writes `"<number>\n"` to standard output with one unbuffered system call.
    private static func acknowledge(_ number: Int) {
        TortureOutput.writeLine("\(number)")
    }

    // MARK: - The schema shared with `txkit-torture`

    /// Three tables that one transaction fills together.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("torture v1") { db in
            try db.execute(sql: """
                CREATE TABLE torture_txn (id INTEGER PRIMARY KEY, itemCount INTEGER NOT NULL);
                CREATE TABLE torture_item (
                    txn INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    PRIMARY KEY (txn, position));
                CREATE TABLE torture_ledger (txn INTEGER PRIMARY KEY, amount INTEGER NOT NULL);
                """)
        }
        return migrator
    }

    /// How many item rows transaction `number` writes (3 to 6).
    static func itemCount(of number: Int) -> Int {
        3 + number % 4
    }

    /// The payload of one item row: a few hundred bytes that name their
    /// transaction and position, so that a torn or misplaced page shows.
    static func payload(of number: Int, position: Int) -> String {
        String(repeating: "\(number).\(position);", count: 40 + (number * 7 + position) % 60)
    }

    /// The ledger amount of transaction `number`.
    static func amount(of number: Int) -> Int {
        (number * 7919) % 10_007
    }

    /// Inserts every row of transaction `number`, in three tables (or, for
    /// the `split-transactions` sabotage, the first or second half of them).
    static func insertTransaction(_ number: Int, _ db: Database, part: Int? = nil) throws {
        let count = itemCount(of: number)
        if part != 1 {
            try db.execute(
                sql: "INSERT INTO torture_txn (id, itemCount) VALUES (?, ?)",
                arguments: [number, count])
        }
        if part == 0 {
            return
        }
        for position in 0..<count {
            try db.execute(
                sql: "INSERT INTO torture_item (txn, position, payload) VALUES (?, ?, ?)",
                arguments: [number, position, payload(of: number, position: position)])
        }
        try db.execute(
            sql: "INSERT INTO torture_ledger (txn, amount) VALUES (?, ?)",
            arguments: [number, amount(of: number)])
    }
}
