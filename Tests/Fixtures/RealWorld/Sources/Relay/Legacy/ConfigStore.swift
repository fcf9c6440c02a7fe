import GRDB

/// App settings, reached through a singleton function
/// (`ConfigStore.shared()`, kept in a local or called on the spot).
package final class ConfigStore: Sendable {
    private static let instance = ConfigStore()

    /// The app-wide store.
    package static func shared() -> ConfigStore {
        instance
    }

    /// The setting stored under `key`.
    package func string(_ db: Database, key: String) -> String? {
        try? String.fetchOne(db, sql: "SELECT value FROM relay_config WHERE key = ?", arguments: [key])
    }

    /// Stores a setting (removes it for `nil`).
    package func set(_ db: Database, key: String, value: String?) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO relay_config (key, value) VALUES (?, ?)", arguments: [key, value])
    }
}
