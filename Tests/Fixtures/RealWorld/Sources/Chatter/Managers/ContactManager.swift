import TransactionKit
import TransactionKitSQLite

/// Saves and renames contacts through the store its environment holds
/// (`environment.contactStore.member(…)`).
package final class ContactManager: Sendable {
    let db: any DB
    let environment: ChatEnvironment

    package init(db: any DB, environment: ChatEnvironment = ChatEnvironment()) {
        self.db = db
        self.environment = environment
    }

    /// Renames a contact, creating it when needed; returns the old name.
    package func rename(phone: String, to name: String) throws -> String? {
        try db.write { tx in
            let transaction = ChatWriteTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let old: ContactStore.Entry? = environment.contactStore.entry(forPhone: phone, transaction: transaction)
            try environment.contactStore.upsert(ContactStore.Entry(phone: phone, name: name), transaction: transaction)
            return old?.name
        }
    }
}
