import GRDB
import TransactionKit
import TransactionKitSQLite

extension ConcurrentTorture {
    /// What the check of a database after a round found.
    typealias Check = TortureCheck<Key>

    /// Reopens the database at `path` (recovering the WAL the killed children
    /// left) and checks every transaction in it against `acknowledged`.
    static func check(path: String, setting: Durability, acknowledged: Set<Key>) throws -> Check {
        let db = try SQLiteDB(path: path, migrator: ConcurrentTortureSchema.migrator, options: setting.options)
        return try db.read { tx in
            let db = try SQLiteDB.shimOnlyBridge(tx)
            var check = Check()
            try check.checkIntegrity(db)
            let snapshot = try TortureSnapshot.read(db)
            check.present = snapshot.present.count
            check.lost = acknowledged.subtracting(snapshot.present.keys)
            check.partial = snapshot.partial
            check.problems += snapshot.gaps
            return check
        }
    }
}
