import TransactionKit

/// The methods of the static ``LegacyMessageFinder`` that ``InboxManager``
/// calls, taking TransactionKit transactions (Shortcut Way).
///
/// **Transaction semantics:** each method runs inside the transaction given.
public protocol InboxManager_LegacyMessageFinderShim: Sendable {
    /// The conversation's latest message, or `nil`.
    func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) throws -> Message?
    /// Messages after `messageID` (all when `nil`) that `userID` did not send.
    func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) throws -> Int
}
