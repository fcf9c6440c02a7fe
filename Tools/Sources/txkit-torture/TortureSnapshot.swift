import GRDB

/// What one read transaction sees of a `txkit-torture --writers N` database,
/// and what is wrong with it.
///
/// Both the reader child (on every snapshot, while writers commit) and the
/// parent (after each round) build one. A consistent snapshot has, for every
/// transaction present, all its item rows with the right payloads and its
/// ledger row, no row without its transaction, and for every writer exactly
/// the sequences `1…max` (writers commit in order, so a gap means that a
/// committed transaction is missing while a later one is visible).
struct TortureSnapshot {
    typealias Key = ConcurrentTortureSchema.Key

    /// The transactions present, with the item count their `mtorture_txn` row names.
    var present: [Key: Int] = [:]
    /// Transactions with a missing, extra or wrong row, or rows without their transaction.
    var partial: Set<Key> = []
    /// The highest sequence present, per writer.
    var highest: [Int: Int] = [:]
    /// Writers whose sequences are not `1…max`, described.
    var gaps: [String] = []

    var isConsistent: Bool { partial.isEmpty && gaps.isEmpty }

    /// Reads every row of the three tables inside the caller's transaction.
    static func read(_ db: Database) throws -> TortureSnapshot {
        var snapshot = TortureSnapshot()
        for row in try Row.fetchAll(db, sql: "SELECT writer, sequence, itemCount FROM mtorture_txn") {
            let itemCount: Int = row[2]
            snapshot.present[Key(writer: row[0], sequence: row[1])] = itemCount
        }
        try snapshot.checkItems(db)
        try snapshot.checkLedger(db)
        snapshot.checkSequences()
        return snapshot
    }

    private mutating func checkItems(_ db: Database) throws {
        var found: [Key: Int] = [:]
        let items = try Row.fetchCursor(db, sql: "SELECT writer, sequence, position, payload FROM mtorture_item")
        while let row = try items.next() {
            let key = Key(writer: row[0], sequence: row[1])
            let position: Int = row[2]
            let payload: String = row[3]
            found[key, default: 0] += 1
            if present[key] == nil
                || position >= ConcurrentTortureSchema.itemCount(of: key)
                || payload != ConcurrentTortureSchema.payload(of: key, position: position)
            {
                partial.insert(key)
            }
        }
        for (key, count) in present where count != ConcurrentTortureSchema.itemCount(of: key) || found[key] != count {
            partial.insert(key)
        }
    }

    private mutating func checkLedger(_ db: Database) throws {
        var found: Set<Key> = []
        for row in try Row.fetchAll(db, sql: "SELECT writer, sequence, amount FROM mtorture_ledger") {
            let key = Key(writer: row[0], sequence: row[1])
            found.insert(key)
            if present[key] == nil || row[2] != ConcurrentTortureSchema.amount(of: key) {
                partial.insert(key)
            }
        }
        for key in present.keys where !found.contains(key) {
            partial.insert(key)
        }
    }

    private mutating func checkSequences() {
        var counts: [Int: Int] = [:]
        for key in present.keys {
            counts[key.writer, default: 0] += 1
            highest[key.writer] = max(highest[key.writer] ?? 0, key.sequence)
        }
        for (writer, top) in highest.sorted(by: { $0.key < $1.key }) where counts[writer] != top {
            gaps.append("writer \(writer): \(counts[writer] ?? 0) transactions present, highest \(top)")
        }
    }
}
