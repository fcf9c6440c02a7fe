import GRDB

/// What the check of a torture database after a round found: the
/// transactions present, those acknowledged but missing (lost) or
/// incomplete (partial), and `PRAGMA integrity_check`.
struct TortureCheck<Key: Hashable> {
    var present = 0
    var lost: Set<Key> = []
    var partial: Set<Key> = []
    var integrity = ""
    var problems: [String] = []

    var isClean: Bool { problems.isEmpty && lost.isEmpty && partial.isEmpty }

    /// Runs `PRAGMA integrity_check`, recording a problem unless it says ok.
    mutating func checkIntegrity(_ db: Database) throws {
        let result = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        integrity = result.joined(separator: "; ")
        if result != ["ok"] {
            problems.append("integrity_check: \(integrity)")
        }
    }
}
