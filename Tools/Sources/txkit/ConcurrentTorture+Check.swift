import GRDB
import TransactionKit
import TransactionKitSQLite

extension ConcurrentTorture {
    /// What the check of a database after a round found.
    struct Check {
        var present = 0
        var lost: Set<Key> = []
        var partial: Set<Key> = []
        var integrity = ""
        var problems: [String] = []

        var isClean: Bool { problems.isEmpty && lost.isEmpty && partial.isEmpty }
    }

    /// Reopens the database at `path` (recovering the WAL the killed children
    /// left) and checks every transaction in it against `acknowledged`.
    static func check(path: String, setting: Durability, acknowledged: Set<Key>) throws -> Check {
        let db = try SQLiteDB(path: path, migrator: ConcurrentTortureSchema.migrator, options: setting.options)
        return try db.read { tx in
            let db = try SQLiteDB.shimOnlyBridge(tx)
            var check = Check()
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            check.integrity = integrity.joined(separator: "; ")
            if integrity != ["ok"] {
                check.problems.append("integrity_check: \(check.integrity)")
            }
            let snapshot = try TortureSnapshot.read(db)
            check.present = snapshot.present.count
            check.lost = acknowledged.subtracting(snapshot.present.keys)
            check.partial = snapshot.partial
            check.problems += snapshot.gaps
            return check
        }
    }
}
