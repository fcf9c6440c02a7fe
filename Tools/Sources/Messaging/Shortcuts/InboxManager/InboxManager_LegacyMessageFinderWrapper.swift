import TransactionKit
import TransactionKitSQLite

/// Forwards ``InboxManager_LegacyMessageFinderShim`` to the static methods
/// of ``LegacyMessageFinder`` through `SQLiteDB.shimOnlyBridge(_:)`
/// (Shortcut Way).
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse:
///   unit tests pass `InboxManager.Mocks.LegacyMessageFinder` instead.
public struct InboxManager_LegacyMessageFinderWrapper: InboxManager_LegacyMessageFinderShim {
    /// Creates the wrapper; the legacy finder is static, so it holds nothing.
    public init() {}

    /// Forwards to `LegacyMessageFinder.latestMessage(conversationID:transaction:)`.
    public func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) throws -> Message? {
        try LegacyMessageFinder.latestMessage(
            conversationID: conversationID, transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
    }

    /// Forwards to `LegacyMessageFinder.countMessages(conversationID:after:notSentBy:transaction:)`.
    public func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) throws -> Int {
        try LegacyMessageFinder.countMessages(
            conversationID: conversationID, after: messageID, notSentBy: userID,
            transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
    }
}
