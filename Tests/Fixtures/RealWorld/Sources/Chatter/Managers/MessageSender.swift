import TransactionKit
import TransactionKitSQLite

/// Sends a message: checks the thread, stores the message, names the
/// sender from the shared address book.
package final class MessageSender: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Stores a message in a thread; returns its identifier and how many
    /// messages there are now, or nil when the thread does not exist.
    package func send(_ body: String, in threadId: String) throws -> (String, Int)? {
        try db.write { tx in
            let transaction = ChatWriteTransaction(try SQLiteDB.shimOnlyBridge(tx))
            guard let thread = ChatThread.anyFetch(uniqueId: threadId, transaction: transaction) else { return nil }
            let message = try ChatMessage.anyInsert(threadId: thread.uniqueId, body: body, transaction: transaction)
            return (message.uniqueId, ChatMessage.anyCount(transaction: transaction))
        }
    }

    /// The name to show for a phone number.
    package func senderName(phone: String) throws -> String {
        try db.read { tx in
            let transaction = ChatReadTransaction(try SQLiteDB.shimOnlyBridge(tx))
            return ContactStore.shared.entry(forPhone: phone, transaction: transaction)?.name ?? phone
        }
    }
}
