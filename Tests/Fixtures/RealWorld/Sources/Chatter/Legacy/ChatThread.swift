import GRDB

/// A conversation.
package final class ChatThread: ChatRecord {
    package let title: String

    package init(uniqueId: String, title: String) {
        self.title = title
        super.init(uniqueId: uniqueId)
    }

    override package class var tableName: String { "chat_thread" }

    /// The thread with this identifier.
    package static func anyFetch(uniqueId: String, transaction: ChatReadTransaction) -> ChatThread? {
        guard let row = try? Row.fetchOne(
            transaction.database, sql: "SELECT title FROM chat_thread WHERE uniqueId = ?", arguments: [uniqueId])
        else { return nil }
        return ChatThread(uniqueId: uniqueId, title: row["title"])
    }

    /// Inserts a thread and returns it.
    @discardableResult
    package static func anyInsert(title: String, transaction: ChatWriteTransaction) throws -> ChatThread {
        let thread = ChatThread(uniqueId: newUniqueId(), title: title)
        try transaction.database.execute(
            sql: "INSERT INTO chat_thread (uniqueId, title) VALUES (?, ?)", arguments: [thread.uniqueId, title])
        return thread
    }
}
