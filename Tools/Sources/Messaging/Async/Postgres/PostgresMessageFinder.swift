import Foundation
import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The production ``AsyncMessageFinding``: SQL on the `message` table of
/// ``MessagingPostgresSchema``, reached through `PostgresDB.shimOnlyBridge(_:)`.
///
/// ```swift
/// let inbox = AsyncInboxManager(db: db, conversations: PostgresConversationFinder(), messages: PostgresMessageFinder())
/// ```
///
/// **Transaction semantics:** each method runs its statements inside the
/// transaction it is given and never begins, commits or rolls back.
///
/// **Task:** the task that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse:
///   unit tests pass a mock of ``AsyncMessageFinding`` instead.
public struct PostgresMessageFinder: AsyncMessageFinding {
    let logger: Logger

    /// Creates the finder.
    ///
    /// - Parameter logger: Where postgres-nio logs the finder's queries.
    public init(logger: Logger = PostgresDB.defaultLogger) {
        self.logger = logger
    }

    // snippet:begin postgres-message-insert
    /// Inserts a message. See ``AsyncMessageFinding``.
    public func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Message {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            """
            INSERT INTO message (conversation_id, sender_id, body, sent_at)
            VALUES (\(conversationID), \(senderID), \(body), \(sentAt)) RETURNING id
            """,
            logger: logger)
        for try await id in rows.decode(Int64.self) {
            return Message(id: id, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
        }
        throw PostgresMissingRow(statement: "INSERT INTO message")
    }
    // snippet:end postgres-message-insert

    /// The conversation's latest message, if any. See ``AsyncMessageFinding``.
    public func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) async throws -> Message? {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            """
            SELECT id, conversation_id, sender_id, body, sent_at FROM message
            WHERE conversation_id = \(conversationID) ORDER BY id DESC LIMIT 1
            """,
            logger: logger)
        for try await (id, conversationID, senderID, body, sentAt) in rows.decode((Int64, Int64, Int64, String, Date).self) {
            return Message(id: id, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
        }
        return nil
    }

    /// Counts the messages after `messageID` not sent by `userID`. See
    /// ``AsyncMessageFinding``.
    public func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) async throws -> Int {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            """
            SELECT count(*) FROM message
            WHERE conversation_id = \(conversationID) AND id > \(messageID ?? 0) AND sender_id <> \(userID)
            """,
            logger: logger)
        for try await count in rows.decode(Int64.self) {
            return Int(count)
        }
        return 0
    }
}
