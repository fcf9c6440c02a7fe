import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The production ``AsyncConversationFinding``: SQL on the `conversation`
/// and `membership` tables of ``MessagingPostgresSchema``, reached through
/// `PostgresDB.shimOnlyBridge(_:)`.
///
/// ```swift
/// let chat = AsyncChatManager(db: db, users: PostgresUserFinder(), conversations: PostgresConversationFinder(), …)
/// ```
///
/// **Transaction semantics:** each method runs its statements inside the
/// transaction it is given and never begins, commits or rolls back.
///
/// **Task:** the task that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse:
///   unit tests pass a mock of ``AsyncConversationFinding`` instead.
public struct PostgresConversationFinder: AsyncConversationFinding {
    let logger: Logger

    /// Creates the finder.
    ///
    /// - Parameter logger: Where postgres-nio logs the finder's queries.
    public init(logger: Logger = PostgresDB.defaultLogger) {
        self.logger = logger
    }

    /// Inserts a conversation and its memberships, in two statements. See
    /// ``AsyncConversationFinding``.
    public func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Conversation {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            "INSERT INTO conversation (title, created_at) VALUES (\(title), \(createdAt)) RETURNING id",
            logger: logger)
        var inserted: Int64?
        for try await id in rows.decode(Int64.self) {
            inserted = id
        }
        guard let id = inserted else { throw PostgresMissingRow(statement: "INSERT INTO conversation") }
        try await connection.query(
            "INSERT INTO membership (conversation_id, user_id) SELECT \(id), unnest(\(memberIDs)::BIGINT[])",
            logger: logger)
        return Conversation(id: id, title: title, createdAt: createdAt)
    }

    /// The conversation with this id, if any. See ``AsyncConversationFinding``.
    public func conversation(id: Int64, _ tx: DBReadTransaction) async throws -> Conversation? {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            "SELECT id, title, created_at, last_message_at FROM conversation WHERE id = \(id)", logger: logger)
        for try await row in rows.decode((Int64, String, Date, Date?).self) {
            return Conversation(id: row.0, title: row.1, createdAt: row.2, lastMessageAt: row.3)
        }
        return nil
    }

    /// The members' ids, ascending. See ``AsyncConversationFinding``.
    public func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) async throws -> [Int64] {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            "SELECT user_id FROM membership WHERE conversation_id = \(conversationID) ORDER BY user_id",
            logger: logger)
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) {
            ids.append(id)
        }
        return ids
    }

    /// The conversations `memberID` belongs to, most recently active first.
    /// See ``AsyncConversationFinding``.
    public func conversations(memberID: Int64, _ tx: DBReadTransaction) async throws -> [Conversation] {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            """
            SELECT c.id, c.title, c.created_at, c.last_message_at FROM conversation c
            JOIN membership m ON m.conversation_id = c.id
            WHERE m.user_id = \(memberID)
            ORDER BY COALESCE(c.last_message_at, c.created_at) DESC, c.id DESC
            """,
            logger: logger)
        var conversations: [Conversation] = []
        for try await row in rows.decode((Int64, String, Date, Date?).self) {
            conversations.append(Conversation(id: row.0, title: row.1, createdAt: row.2, lastMessageAt: row.3))
        }
        return conversations
    }

    /// The last message `userID` read in the conversation, if any.
    /// See ``AsyncConversationFinding``.
    public func lastReadMessageID(
        conversationID: Int64, userID: Int64, _ tx: DBReadTransaction
    ) async throws -> Int64? {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            """
            SELECT last_read_message_id FROM membership
            WHERE conversation_id = \(conversationID) AND user_id = \(userID)
            """,
            logger: logger)
        for try await id in rows.decode(Int64?.self) {
            return id
        }
        return nil
    }

    /// Records how far `userID` has read. See ``AsyncConversationFinding``.
    public func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) async throws {
        try await PostgresDB.shimOnlyBridge(tx).query(
            """
            UPDATE membership SET last_read_message_id = \(messageID)
            WHERE conversation_id = \(conversationID) AND user_id = \(userID)
            """,
            logger: logger)
    }

    /// Records when the latest message was sent. See ``AsyncConversationFinding``.
    public func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) async throws {
        try await PostgresDB.shimOnlyBridge(tx).query(
            "UPDATE conversation SET last_message_at = \(date) WHERE id = \(conversationID)", logger: logger)
    }
}
