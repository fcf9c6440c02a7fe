import GRDB

/// Messages in threads: static fetchers and writers on GRDB's `Database`.
package enum InteractionStore {
    /// Stores a message; returns its identifier.
    @discardableResult
    package static func insert(_ db: Database, threadId: String, body: String) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO relay_interaction (threadId, body) VALUES (?, ?)", arguments: [threadId, body])
        return db.lastInsertedRowID
    }

    /// How many messages of the thread are unread.
    package static func fetchUnreadCount(_ db: Database, threadId: String) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM relay_interaction WHERE threadId = ? AND isRead = 0", arguments: [threadId]
        ) ?? 0
    }

    /// Marks the thread's messages read, up to `id`.
    package static func markAsRead(_ db: Database, threadId: String, upTo id: Int64) throws {
        try db.execute(
            sql: "UPDATE relay_interaction SET isRead = 1 WHERE threadId = ? AND id <= ?", arguments: [threadId, id])
    }
}
