import Foundation
import GRDB

/// Legacy data access for messages: an enum of static methods, all taking
/// the concrete ``LegacyTransaction``.
///
/// Static methods cannot be swapped for a mock, and many legacy callers
/// use them, so the migration leaves this finder as is and reaches it
/// through the Shortcut Way from ``ChatManager`` and ``InboxManager``.
// snippet:begin legacy-message-finder
package enum LegacyMessageFinder {
    package static func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date,
        transaction: LegacyTransaction
    ) throws -> Message {
        try transaction.database.execute(
            sql: "INSERT INTO message (conversationID, senderID, body, sentAt) VALUES (?, ?, ?, ?)",
            arguments: [conversationID, senderID, body, sentAt])
        return Message(
            id: transaction.database.lastInsertedRowID, conversationID: conversationID,
            senderID: senderID, body: body, sentAt: sentAt)
    }

    package static func latestMessage(conversationID: Int64, transaction: LegacyTransaction) throws -> Message? {
        try Row.fetchOne(
            transaction.database,
            sql: "SELECT * FROM message WHERE conversationID = ? ORDER BY id DESC LIMIT 1",
            arguments: [conversationID]
        ).map(Message.init(row:))
    }

    /// Messages after `messageID` (all of them when `nil`) not sent by `userID`.
    package static func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64,
        transaction: LegacyTransaction
    ) throws -> Int {
        try Int.fetchOne(
            transaction.database,
            sql: "SELECT COUNT(*) FROM message WHERE conversationID = ? AND id > ? AND senderID <> ?",
            arguments: [conversationID, messageID ?? 0, userID]) ?? 0
    }

    package static func messages(conversationID: Int64, limit: Int, transaction: LegacyTransaction) throws -> [Message] {
        try Row.fetchAll(
            transaction.database,
            sql: "SELECT * FROM message WHERE conversationID = ? ORDER BY id DESC LIMIT ?",
            arguments: [conversationID, limit]
        ).map(Message.init(row:)).reversed()
    }
}
// snippet:end legacy-message-finder

extension Message {
    init(row: Row) {
        self.init(
            id: row["id"], conversationID: row["conversationID"], senderID: row["senderID"],
            body: row["body"], sentAt: row["sentAt"])
    }
}
