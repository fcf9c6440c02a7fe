import GRDB

/// The address book, reached through a shared instance
/// (`ContactStore.shared`) or through the app's environment.
package final class ContactStore: Sendable {
    /// A contact, as the store returns it.
    package struct Entry: Equatable, Sendable {
        package var phone: String
        package var name: String

        package init(phone: String, name: String) {
            self.phone = phone
            self.name = name
        }
    }

    /// The app-wide store.
    package static let shared = ContactStore()

    package init() {}

    /// The contact with this phone number.
    package func entry(forPhone phone: String, transaction: ChatReadTransaction) -> Entry? {
        guard let name = try? String.fetchOne(
            transaction.database, sql: "SELECT name FROM chat_contact WHERE phone = ?", arguments: [phone])
        else { return nil }
        return Entry(phone: phone, name: name)
    }

    /// Inserts or replaces a contact.
    package func upsert(_ entry: Entry, transaction: ChatWriteTransaction) throws {
        try transaction.database.execute(
            sql: "INSERT OR REPLACE INTO chat_contact (phone, name) VALUES (?, ?)", arguments: [entry.phone, entry.name])
    }
}
