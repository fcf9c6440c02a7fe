import Foundation
import TransactionKit

/// Data access for messages, for managers that run on an
/// ``/TransactionKit/AsyncDB``.
///
/// ```swift
/// let latest = try await db.read { tx in try await messages.latestMessage(conversationID: id, tx) }
/// ```
///
/// Production passes ``PostgresMessageFinder``; unit tests pass a mock.
///
/// **Transaction semantics:** every method runs inside the transaction it is
/// given; the writing method demands a `DBWriteTransaction`.
///
/// **Task:** the task that runs the transaction's block.
///
/// - Warning: Never store the transaction.
public protocol AsyncMessageFinding: Sendable {
    /// Inserts a message and returns it, with its new id.
    func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) async throws -> Message
    /// The conversation's latest message, or `nil` when it has none.
    func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) async throws -> Message?
    /// How many messages of the conversation come after `messageID` (all of
    /// them when it is `nil`), leaving out those `userID` sent.
    func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) async throws -> Int
}
