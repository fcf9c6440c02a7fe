import Foundation
import TransactionKit

/// The method of the static ``LegacyMessageFinder`` that ``ChatManager``
/// calls, as an instance method taking a TransactionKit transaction
/// (Shortcut Way). Static methods cannot be mocked; a shim can.
///
/// **Transaction semantics:** runs inside the transaction given.
// snippet:begin chat-message-shim
public protocol ChatManager_LegacyMessageFinderShim: Sendable {
    /// Inserts a message and returns it.
    func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) throws -> Message
}
// snippet:end chat-message-shim
