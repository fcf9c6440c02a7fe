import TransactionKit
import TransactionKitSQLite

/// The badge: unread messages and receipts still to send, from finders
/// made on the spot.
package final class UnreadCountManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// The thread's unread count and the body of its newest message.
    package func badge(threadId: String) throws -> (Int, String?) {
        try db.read { tx in
            let transaction = ChatReadTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let unread = InteractionFinder().unreadCount(threadId: threadId, transaction: transaction)
            let latest = InteractionFinder().latestMessage(threadId: threadId, transaction: transaction)
            return (unread, latest?.body)
        }
    }

    /// How many receipts wait to be sent (the finder's default limit).
    package func pendingReceiptCount() throws -> Int {
        try db.read { tx in
            let transaction = ChatReadTransaction(try SQLiteDB.shimOnlyBridge(tx))
            return try ReceiptFinder().pendingReceipts(transaction: transaction).count
        }
    }
}
