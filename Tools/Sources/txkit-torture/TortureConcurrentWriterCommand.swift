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

/// `txkit-torture concurrent-writer` (hidden): one of the writer children of
/// `txkit-torture --writers N`.
///
/// Opens the shared file database at `--path` and commits the transactions
/// of writer `--writer` (see ``ConcurrentTortureSchema``) forever, continuing
/// after its highest sequence already in the file, while other writer
/// processes commit theirs into the same WAL. Each sequence number is written
/// to standard output (one line, one unbuffered `write(2)`) only after `write`
/// returned. The parent kills this process with `SIGKILL`; it exits on its
/// own only when orphaned.
struct TortureConcurrentWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrent-writer",
        abstract: "Commit one writer's transactions until killed (used by `txkit-torture --writers`).",
        shouldDisplay: false
    )

    @Option(help: "The database file.")
    var path: String

    @Option(help: "This writer's number: its key space in the shared tables.")
    var writer: Int

    @Option(help: "The durability setting: full or normal.")
    var durability: TortureWriterCommand.Durability = .full

    @Option(help: ArgumentHelp("Introduce a deliberate bug, to check the checker.", visibility: .hidden))
    var sabotage: TortureWriterCommand.Sabotage?

    func run() throws {
        let parent = getppid()
        let db = try SQLiteDB(
            path: path, migrator: ConcurrentTortureSchema.migrator,
            options: ConcurrentTortureSchema.childOptions(durability))
        var sequence = try db.read { tx in
            try ConcurrentTortureSchema.nextSequence(of: writer, SQLiteDB.shimOnlyBridge(tx))
        }
        while getppid() == parent {  // Orphaned: nobody reads the acknowledgements any more.
            let key = ConcurrentTortureSchema.Key(writer: writer, sequence: sequence)
            try commit(key, in: db)
            sequence += 1
        }
    }

    /// Commits `key` and acknowledges it, correctly or as the sabotage says.
    private func commit(_ key: ConcurrentTortureSchema.Key, in db: SQLiteDB) throws {
        switch sabotage {
        case nil:
            try db.write { tx in try ConcurrentTortureSchema.insert(key, SQLiteDB.shimOnlyBridge(tx)) }
            // Acknowledge only now that `write` returned.
            TortureOutput.writeLine("\(key.sequence)")
        case .acknowledgeEarly:
            TortureOutput.writeLine("\(key.sequence)")
            try db.write { tx in try ConcurrentTortureSchema.insert(key, SQLiteDB.shimOnlyBridge(tx)) }
        case .splitTransactions:
            try db.write { tx in try ConcurrentTortureSchema.insert(key, SQLiteDB.shimOnlyBridge(tx), part: 0) }
            try db.write { tx in try ConcurrentTortureSchema.insert(key, SQLiteDB.shimOnlyBridge(tx), part: 1) }
            TortureOutput.writeLine("\(key.sequence)")
        }
    }
}
