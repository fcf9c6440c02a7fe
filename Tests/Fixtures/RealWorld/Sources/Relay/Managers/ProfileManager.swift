import TransactionKit
import TransactionKitSQLite

/// Names contacts, through the profile singleton and a setting.
package final class ProfileManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// The name to show: the profile's, or the setting's fallback.
    package func name(for id: String) throws -> String {
        try db.read { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            if let name = ProfileStore.shared.displayName(database, for: id) {
                return name
            }
            return ConfigStore.shared().string(database, key: "unknownName") ?? id
        }
    }

    /// Renames a contact.
    package func rename(_ id: String, to name: String) throws {
        try db.write { tx in
            try ProfileStore.shared.updateDisplayName(try SQLiteDB.shimOnlyBridge(tx), id: id, name: name)
        }
    }
}
