import Foundation
import TransactionKit

/// ``AsyncConversationFinding`` on SQLite: the synchronous
/// ``ConversationFinder``, called from async methods.
///
/// ```swift
/// let chat = AsyncChatManager(db: db, users: AsyncSQLiteUserFinder(),
///     conversations: AsyncSQLiteConversationFinder(), messages: AsyncSQLiteMessageFinder(), notifier: notifier)
/// ```
///
/// A synchronous Good-Way finder serves async managers as is: `SQLiteDB`
/// runs an async block's nonisolated code on the transaction's connection
/// thread, so the finder's GRDB calls run where GRDB allows them.
///
/// **Transaction semantics:** those of ``ConversationFinder``.
public struct AsyncSQLiteConversationFinder: AsyncConversationFinding {
    private let finder = ConversationFinder()

    /// Creates the finder; it holds no state.
    public init() {}

    /// See ``AsyncConversationFinding``.
    public func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Conversation {
        try finder.insertConversation(title: title, memberIDs: memberIDs, createdAt: createdAt, tx)
    }

    /// See ``AsyncConversationFinding``.
    public func conversation(id: Int64, _ tx: DBReadTransaction) async throws -> Conversation? {
        try finder.conversation(id: id, tx)
    }

    /// See ``AsyncConversationFinding``.
    public func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) async throws -> [Int64] {
        try finder.memberIDs(conversationID: conversationID, tx)
    }

    /// See ``AsyncConversationFinding``.
    public func conversations(memberID: Int64, _ tx: DBReadTransaction) async throws -> [Conversation] {
        try finder.conversations(memberID: memberID, tx)
    }

    /// See ``AsyncConversationFinding``.
    public func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) async throws -> Int64? {
        try finder.lastReadMessageID(conversationID: conversationID, userID: userID, tx)
    }

    /// See ``AsyncConversationFinding``.
    public func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) async throws {
        try finder.setLastReadMessageID(messageID, conversationID: conversationID, userID: userID, tx)
    }

    /// See ``AsyncConversationFinding``.
    public func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) async throws {
        try finder.setLastMessageAt(date, conversationID: conversationID, tx)
    }
}
