import GRDB
import TransactionKitSQLite

/// The schema and the row contents shared by the processes of
/// `txkit-torture --writers N --reader`.
///
/// Writer `w` owns the key space `writer = w`: it commits transactions
/// numbered `1, 2, 3, …` (the *sequence*), each one row in `mtorture_txn`,
/// ``itemCount(of:)`` rows in `mtorture_item` and one row in
/// `mtorture_ledger`. Several writers share the tables and the WAL file, never
/// a key.
enum ConcurrentTortureSchema {
    /// One transaction of one writer.
    struct Key: Hashable, Comparable, CustomStringConvertible {
        var writer: Int
        var sequence: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.writer, lhs.sequence) < (rhs.writer, rhs.sequence)
        }

        var description: String { "w\(writer)#\(sequence)" }
    }

    /// Three tables that one transaction fills together.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("concurrent torture v1") { db in
            try db.execute(sql: """
                CREATE TABLE mtorture_txn (
                    writer INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    itemCount INTEGER NOT NULL,
                    PRIMARY KEY (writer, sequence));
                CREATE TABLE mtorture_item (
                    writer INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    PRIMARY KEY (writer, sequence, position));
                CREATE TABLE mtorture_ledger (
                    writer INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    amount INTEGER NOT NULL,
                    PRIMARY KEY (writer, sequence));
                """)
        }
        return migrator
    }

    /// How many item rows a transaction writes (2 to 5).
    static func itemCount(of key: Key) -> Int {
        2 + (key.sequence + key.writer) % 4
    }

    /// The payload of one item row: a few hundred bytes that name their
    /// writer, transaction and position, so that a misplaced page shows.
    static func payload(of key: Key, position: Int) -> String {
        String(
            repeating: "\(key.writer).\(key.sequence).\(position);",
            count: 20 + (key.sequence * 7 + key.writer * 3 + position) % 40)
    }

    /// The ledger amount of a transaction.
    static func amount(of key: Key) -> Int {
        (key.sequence * 7919 + key.writer * 104_729) % 10_007
    }

    /// The next sequence number of `writer`: one after the highest in the file.
    static func nextSequence(of writer: Int, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COALESCE(MAX(sequence), 0) + 1 FROM mtorture_txn WHERE writer = ?",
            arguments: [writer]) ?? 1
    }

    /// Inserts every row of transaction `key` (or, for the
    /// `split-transactions` sabotage, the first or second part of them).
    static func insert(_ key: Key, _ db: Database, part: Int? = nil) throws {
        let count = itemCount(of: key)
        if part != 1 {
            try db.execute(
                sql: "INSERT INTO mtorture_txn (writer, sequence, itemCount) VALUES (?, ?, ?)",
                arguments: [key.writer, key.sequence, count])
        }
        if part == 0 {
            return
        }
        for position in 0..<count {
            try db.execute(
                sql: "INSERT INTO mtorture_item (writer, sequence, position, payload) VALUES (?, ?, ?, ?)",
                arguments: [key.writer, key.sequence, position, payload(of: key, position: position)])
        }
        try db.execute(
            sql: "INSERT INTO mtorture_ledger (writer, sequence, amount) VALUES (?, ?, ?)",
            arguments: [key.writer, key.sequence, amount(of: key)])
    }

    /// The children's options: the durability under test, and a busy
    /// timeout long enough that a writer starved of the write lock by the
    /// others on a loaded machine waits instead of failing the run (the
    /// torture checks durability and snapshots, not lock fairness).
    static func childOptions(_ durability: TortureWriterCommand.Durability) -> SQLiteDB.Options {
        var options = durability.options
        options.busyTimeout = .seconds(30)
        return options
    }
}
