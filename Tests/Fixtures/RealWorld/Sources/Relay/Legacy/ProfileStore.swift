import GRDB

/// Display names, through a static singleton property
/// (`ProfileStore.shared.member(…)`).
package final class ProfileStore: Sendable {
    /// The app-wide store.
    package static let shared = ProfileStore()

    /// The name shown for a contact.
    package func displayName(_ db: Database, for id: String) -> String? {
        try? String.fetchOne(db, sql: "SELECT name FROM relay_profile WHERE id = ?", arguments: [id])
    }

    /// Changes the name shown for a contact.
    package func updateDisplayName(_ db: Database, id: String, name: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO relay_profile (id, name) VALUES (?, ?)", arguments: [id, name])
    }
}
