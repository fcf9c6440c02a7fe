import GRDB
import Messaging
import TransactionKit
import TransactionKitSQLite

extension DemoCommand {
    /// Prints the rows of the library's key-value table, read with plain
    /// SQL, to show where the example's settings and cursors live.
    static func printKeyValueTable(of db: SQLiteDB) throws {
        let rows = try db.read { tx in
            try Row.fetchAll(
                SQLiteDB.shimOnlyBridge(tx),
                sql: "SELECT collection, key, value, typeof(value) AS type FROM transactionkit_key_value ORDER BY collection, key")
        }
        print("")
        print("Key-value store: \(rows.count) row(s) in the table transactionkit_key_value, read with plain SQL")
        for row in rows {
            let collection: String = row["collection"]
            let key: String = row["key"]
            let value: DatabaseValue = row["value"]
            let type: String = row["type"]
            print("   \(collection) | \(key) | \(value) (\(type))")
        }
    }
}
