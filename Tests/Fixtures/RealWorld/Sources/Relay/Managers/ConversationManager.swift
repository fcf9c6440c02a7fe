import TransactionKit
import TransactionKitSQLite

/// Opens conversations and reads them.
package final class ConversationManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Opens (creating when needed) a thread; returns whether it is pinned
    /// and how many messages are unread.
    package func open(threadId: String) throws -> (Bool, Int) {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            try ThreadStore.fetchOrCreate(database, id: threadId)
            let pinned = ThreadStore.isPinned(database, id: threadId)
            return (pinned, try InteractionStore.fetchUnreadCount(database, threadId: threadId))
        }
    }

    /// Marks the thread read up to a message.
    package func markRead(threadId: String, upTo id: Int64) throws {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            try InteractionStore.markAsRead(database, threadId: threadId, upTo: id)
        }
    }
}
