import GRDB

/// A key-value collection, one per feature (the shape of a messaging app's
/// per-collection key-value store, held in a manager's stored property).
package struct ChatKeyValueStore: Sendable {
    package let collection: String

    package init(collection: String) {
        self.collection = collection
    }

    /// The flag stored under `key`, or `defaultValue`.
    package func getBool(_ key: String, defaultValue: Bool, transaction: ChatReadTransaction) -> Bool {
        guard let text = getString(key, transaction: transaction) else { return defaultValue }
        return text == "1"
    }

    /// Stores a flag under `key`.
    package func setBool(_ value: Bool, key: String, transaction: ChatWriteTransaction) throws {
        try setString(value ? "1" : "0", key: key, transaction: transaction)
    }

    /// The text stored under `key`.
    package func getString(_ key: String, transaction: ChatReadTransaction) -> String? {
        try? String.fetchOne(
            transaction.database, sql: "SELECT value FROM chat_keyvalue WHERE collection = ? AND key = ?",
            arguments: [collection, key])
    }

    /// Stores text under `key` (removes it for `nil`).
    package func setString(_ value: String?, key: String, transaction: ChatWriteTransaction) throws {
        try transaction.database.execute(
            sql: "INSERT OR REPLACE INTO chat_keyvalue (collection, key, value) VALUES (?, ?, ?)",
            arguments: [collection, key, value])
    }
}
