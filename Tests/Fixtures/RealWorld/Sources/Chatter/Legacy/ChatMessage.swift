import GRDB

/// A message in a thread.
package final class ChatMessage: ChatRecord {
    package let threadId: String
    package let body: String

    package init(uniqueId: String, threadId: String, body: String) {
        self.threadId = threadId
        self.body = body
        super.init(uniqueId: uniqueId)
    }

    override package class var tableName: String { "chat_message" }

    /// The message with this identifier.
    package static func anyFetch(uniqueId: String, transaction: ChatReadTransaction) -> ChatMessage? {
        guard let row = try? Row.fetchOne(
            transaction.database, sql: "SELECT threadId, body FROM chat_message WHERE uniqueId = ?",
            arguments: [uniqueId])
        else { return nil }
        return ChatMessage(uniqueId: uniqueId, threadId: row["threadId"], body: row["body"])
    }

    /// Inserts a message and returns it.
    @discardableResult
    package static func anyInsert(threadId: String, body: String, transaction: ChatWriteTransaction) throws -> ChatMessage {
        let message = ChatMessage(uniqueId: newUniqueId(), threadId: threadId, body: body)
        try transaction.database.execute(
            sql: "INSERT INTO chat_message (uniqueId, threadId, body) VALUES (?, ?, ?)",
            arguments: [message.uniqueId, threadId, body])
        return message
    }
}
