import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// The production ``ConversationFinding``: SQL on the `conversation` and
/// `membership` tables, reached through `SQLiteDB.shimOnlyBridge(_:)`.
///
/// ```swift
/// let chat = ChatManager(db: db, conversations: ConversationFinder(), …)
/// ```
///
/// **Transaction semantics:** each method runs its statements inside the
/// transaction it is given and never begins, commits or rolls back.
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse
///   ("mock the finder that called the bridge"): unit tests pass a mock of
///   ``ConversationFinding`` instead.
public struct ConversationFinder: ConversationFinding {
    /// Creates the finder; it holds no state.
    public init() {}

    // snippet:begin conversation-finder-insert
    /// Inserts a conversation and its memberships. See ``ConversationFinding``.
    public func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) throws -> Conversation {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        try db.execute(
            sql: "INSERT INTO conversation (title, createdAt) VALUES (?, ?)", arguments: [title, createdAt])
        let conversation = Conversation(id: db.lastInsertedRowID, title: title, createdAt: createdAt)
        for userID in memberIDs {
            try db.execute(
                sql: "INSERT INTO membership (conversationID, userID) VALUES (?, ?)",
                arguments: [conversation.id, userID])
        }
        return conversation
    }
    // snippet:end conversation-finder-insert

    /// The conversation with this id, if any. See ``ConversationFinding``.
    public func conversation(id: Int64, _ tx: DBReadTransaction) throws -> Conversation? {
        try Row.fetchOne(
            try SQLiteDB.shimOnlyBridge(tx), sql: "SELECT * FROM conversation WHERE id = ?", arguments: [id]
        ).map(Conversation.init(row:))
    }

    /// The members' ids, ascending. See ``ConversationFinding``.
    public func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) throws -> [Int64] {
        try Int64.fetchAll(
            try SQLiteDB.shimOnlyBridge(tx),
            sql: "SELECT userID FROM membership WHERE conversationID = ? ORDER BY userID",
            arguments: [conversationID])
    }

    /// The conversations `memberID` belongs to, most recently active first.
    /// See ``ConversationFinding``.
    public func conversations(memberID: Int64, _ tx: DBReadTransaction) throws -> [Conversation] {
        try Row.fetchAll(
            try SQLiteDB.shimOnlyBridge(tx),
            sql: """
                SELECT conversation.* FROM conversation
                JOIN membership ON membership.conversationID = conversation.id
                WHERE membership.userID = ?
                ORDER BY COALESCE(conversation.lastMessageAt, conversation.createdAt) DESC, conversation.id DESC
                """,
            arguments: [memberID]
        ).map(Conversation.init(row:))
    }

    /// The last message `userID` read in the conversation, if any.
    /// See ``ConversationFinding``.
    public func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) throws -> Int64? {
        try Int64?.fetchOne(
            try SQLiteDB.shimOnlyBridge(tx),
            sql: "SELECT lastReadMessageID FROM membership WHERE conversationID = ? AND userID = ?",
            arguments: [conversationID, userID]) ?? nil
    }

    /// Records how far `userID` has read. See ``ConversationFinding``.
    public func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) throws {
        try SQLiteDB.shimOnlyBridge(tx).execute(
            sql: "UPDATE membership SET lastReadMessageID = ? WHERE conversationID = ? AND userID = ?",
            arguments: [messageID, conversationID, userID])
    }

    /// Records when the latest message was sent. See ``ConversationFinding``.
    public func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) throws {
        try SQLiteDB.shimOnlyBridge(tx).execute(
            sql: "UPDATE conversation SET lastMessageAt = ? WHERE id = ?", arguments: [date, conversationID])
    }
}

extension Conversation {
    init(row: Row) {
        self.init(
            id: row["id"], title: row["title"], createdAt: row["createdAt"], lastMessageAt: row["lastMessageAt"])
    }
}
