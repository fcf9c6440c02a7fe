import Foundation
import TransactionKit
import TransactionKitSQLite

/// Forwards ``ChatManager_LegacyMessageFinderShim`` to the static methods of
/// ``LegacyMessageFinder`` through `SQLiteDB.shimOnlyBridge(_:)` (Shortcut Way).
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse:
///   unit tests pass `ChatManager.Mocks.LegacyMessageFinder` instead.
// snippet:begin chat-message-wrapper
public struct ChatManager_LegacyMessageFinderWrapper: ChatManager_LegacyMessageFinderShim {
    /// Creates the wrapper; the legacy finder is static, so it holds nothing.
    public init() {}

    /// Forwards to `LegacyMessageFinder.insert(conversationID:senderID:body:sentAt:transaction:)`.
    public func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) throws -> Message {
        try LegacyMessageFinder.insert(
            conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt,
            transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
    }
}
// snippet:end chat-message-wrapper
