import GRDB

/// Queries over a thread's messages, made on a throwaway value
/// (`InteractionFinder().unreadCount(…)`).
package struct InteractionFinder {
    package init() {}

    /// How many messages of the thread are unread.
    package func unreadCount(threadId: String, transaction: ChatReadTransaction) -> Int {
        let count = try? Int.fetchOne(
            transaction.database, sql: "SELECT COUNT(*) FROM chat_message WHERE threadId = ? AND isRead = 0",
            arguments: [threadId])
        return count ?? 0
    }

    /// The thread's newest message.
    package func latestMessage(threadId: String, transaction: ChatReadTransaction) -> ChatMessage? {
        guard let id = try? String.fetchOne(
            transaction.database, sql: "SELECT uniqueId FROM chat_message WHERE threadId = ? ORDER BY rowid DESC",
            arguments: [threadId])
        else { return nil }
        return ChatMessage.anyFetch(uniqueId: id, transaction: transaction)
    }

    /// Marks every message of the thread read.
    package func markAllRead(threadId: String, transaction: ChatWriteTransaction) throws {
        try transaction.database.execute(
            sql: "UPDATE chat_message SET isRead = 1 WHERE threadId = ?", arguments: [threadId])
    }
}
