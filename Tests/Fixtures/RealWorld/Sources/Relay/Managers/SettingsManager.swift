import TransactionKit
import TransactionKitSQLite

/// Reads and changes settings through the singleton function, kept in a
/// local or called on the spot.
package final class SettingsManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Replaces a setting; returns the previous value.
    package func replace(_ key: String, with value: String?) throws -> String? {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            let store = ConfigStore.shared()
            let old = store.string(database, key: key)
            try ConfigStore.shared().set(database, key: key, value: value)
            return old
        }
    }
}
