import Foundation
import TransactionKit

extension ChatManager {
    // snippet:begin chat-did-import
    /// Brings the chat up to date with messages that someone else wrote in
    /// `tx`, such as ``LegacyMessageImporter``, which writes them with plain
    /// GRDB and bridges its own transaction to call this method.
    ///
    /// Every sender must be a member of the conversation. The conversation's
    /// `lastMessageAt` moves forward to the latest imported message (never
    /// back, for an import of old messages); the members who did not mute
    /// the conversation are notified of each message they did not send,
    /// after the commit.
    ///
    /// **Transaction semantics:** part of `tx`, which the caller opened:
    /// a thrown error makes the caller's transaction roll back with the
    /// messages, and then nobody is notified. The update runs in this call,
    /// not in a finalization, so that the unscoped bridge
    /// (`db.writeTransaction(bridging:)`, whose finalizations run in SQLite's
    /// commit hook, where they may not run statements) can call it.
    ///
    /// - Parameters:
    ///   - imported: The messages just written in `tx`, oldest first.
    ///   - conversationID: Their conversation.
    ///   - tx: The write transaction they were written in.
    /// - Throws: ``Failure/unknownConversation(_:)``,
    ///   ``Failure/notAMember(userID:conversationID:)``, or `DBError`.
    public func didImport(_ imported: [Message], into conversationID: Int64, _ tx: DBWriteTransaction) throws {
        guard let conversation = try conversations.conversation(id: conversationID, tx) else {
            throw Failure.unknownConversation(conversationID)
        }
        let memberIDs = try conversations.memberIDs(conversationID: conversationID, tx)
        for message in imported where !memberIDs.contains(message.senderID) {
            throw Failure.notAMember(userID: message.senderID, conversationID: conversationID)
        }
        guard let latest = imported.map(\.sentAt).max() else { return }
        if latest > conversation.lastMessageAt ?? .distantPast {
            try conversations.setLastMessageAt(latest, conversationID: conversationID, tx)
        }
        let listeners = try memberIDs.filter { memberID in
            try !settings.isMuted(conversationID: conversationID, userID: memberID, tx)
        }
        tx.addSyncCompletion {
            for message in imported {
                notifier.messageWasSent(message, to: listeners.filter { $0 != message.senderID })
            }
        }
    }
    // snippet:end chat-did-import
}
