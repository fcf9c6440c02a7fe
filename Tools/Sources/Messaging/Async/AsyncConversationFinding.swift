import Foundation
import TransactionKit

/// Data access for conversations and memberships, for managers that run on
/// an ``/TransactionKit/AsyncDB``: the async counterpart of
/// ``ConversationFinding``.
///
/// ```swift
/// let memberIDs = try await db.read { tx in try await conversations.memberIDs(conversationID: id, tx) }
/// ```
///
/// Production passes ``PostgresConversationFinder``; unit tests pass a mock.
///
/// **Transaction semantics:** every method runs inside the transaction it is
/// given; writing methods demand a `DBWriteTransaction`.
///
/// **Task:** the task that runs the transaction's block.
///
/// - Warning: Never store the transaction.
public protocol AsyncConversationFinding: Sendable {
    /// Inserts a conversation with these members and returns it.
    ///
    /// - Throws: `DBConstraintViolation` of kind `foreignKey` when a member
    ///   id names no user.
    func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Conversation
    /// The conversation with this id, or `nil`.
    func conversation(id: Int64, _ tx: DBReadTransaction) async throws -> Conversation?
    /// The ids of the conversation's members, ascending.
    func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) async throws -> [Int64]
    /// The conversations of one member, most recently active first.
    func conversations(memberID: Int64, _ tx: DBReadTransaction) async throws -> [Conversation]
    /// The id of the last message the user read there, or `nil` if none.
    func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) async throws -> Int64?
    /// Records the last message the user read there.
    func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) async throws
    /// Records when the conversation's latest message was sent.
    func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) async throws
}
