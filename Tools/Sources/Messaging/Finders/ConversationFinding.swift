import Foundation
import TransactionKit

/// Data access for conversations and memberships — the example's **Good Way**
/// finder: it takes TransactionKit's abstract transactions, so managers
/// depend on this protocol, production passes ``ConversationFinder``, and
/// unit tests pass a mock.
///
/// ```swift
/// let conversation = try db.read { tx in try conversations.conversation(id: id, tx) }
/// ```
///
/// **Transaction semantics:** every method runs inside the transaction it is
/// given; writing methods demand a `DBWriteTransaction`, so calling them from
/// a `read` block does not compile.
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Never store the transaction; a mock should call
///   `tx.preconditionActive()` so that an escaped transaction is caught in
///   unit tests as it would be in production.
// snippet:begin conversation-finding
public protocol ConversationFinding: Sendable {
    /// Inserts a conversation with these members and returns it.
    func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) throws -> Conversation
    /// The conversation with this id, or `nil`.
    func conversation(id: Int64, _ tx: DBReadTransaction) throws -> Conversation?
    /// The ids of the conversation's members, ascending.
    func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) throws -> [Int64]
    /// The conversations of one member, most recently active first.
    func conversations(memberID: Int64, _ tx: DBReadTransaction) throws -> [Conversation]
    /// The id of the last message the user read there, or `nil` if none.
    func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) throws -> Int64?
    /// Records the last message the user read there.
    func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) throws
    /// Records when the conversation's latest message was sent.
    func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) throws
}
// snippet:end conversation-finding
