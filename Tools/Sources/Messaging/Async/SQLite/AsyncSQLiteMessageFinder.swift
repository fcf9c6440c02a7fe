import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// ``AsyncMessageFinding`` on SQLite: the `message` table of
/// ``MessagingSchema``, reached through `SQLiteDB.shimOnlyBridge(_:)`.
///
/// ```swift
/// let inbox = AsyncInboxManager(
///     db: db, conversations: AsyncSQLiteConversationFinder(), messages: AsyncSQLiteMessageFinder())
/// ```
///
/// **Transaction semantics:** each method runs inside the transaction it is
/// given and never begins, commits or rolls back.
///
/// - Warning: Given a `MockDB` or `PostgresDB` transaction, the bridge
///   reports a misuse.
public struct AsyncSQLiteMessageFinder: AsyncMessageFinding {
    /// Creates the finder; it holds no state.
    public init() {}

    /// Inserts a message. See ``AsyncMessageFinding``.
    public func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Message {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        try db.execute(
            sql: "INSERT INTO message (conversationID, senderID, body, sentAt) VALUES (?, ?, ?, ?)",
            arguments: [conversationID, senderID, body, sentAt])
        return Message(
            id: db.lastInsertedRowID, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
    }

    /// The conversation's latest message. See ``AsyncMessageFinding``.
    public func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) async throws -> Message? {
        try Row.fetchOne(
            try SQLiteDB.shimOnlyBridge(tx),
            sql: "SELECT * FROM message WHERE conversationID = ? ORDER BY id DESC LIMIT 1",
            arguments: [conversationID]
        ).map(Message.init(row:))
    }

    /// Messages after `messageID` not sent by `userID`. See ``AsyncMessageFinding``.
    public func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) async throws -> Int {
        try Int.fetchOne(
            try SQLiteDB.shimOnlyBridge(tx),
            sql: "SELECT COUNT(*) FROM message WHERE conversationID = ? AND id > ? AND senderID <> ?",
            arguments: [conversationID, messageID ?? 0, userID]) ?? 0
    }
}
