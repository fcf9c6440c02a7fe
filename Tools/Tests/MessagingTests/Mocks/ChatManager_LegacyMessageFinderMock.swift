import Foundation
import Messaging
import TransactionKit
import TransactionKitTesting

/// `ChatManager.Mocks.LegacyMessageFinder`: records inserted messages and
/// hands out increasing ids once ``stubInserts(firstID:)`` was called; fails
/// the test on an unstubbed call. Not thread-safe.
final class ChatManager_LegacyMessageFinderMock: ChatManager_LegacyMessageFinderShim, @unchecked Sendable {
    var insertStub: ((_ conversationID: Int64, _ senderID: Int64, _ body: String, _ sentAt: Date) -> Message)?
    private(set) var inserted: [Message] = []

    func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) throws -> Message {
        tx.preconditionActive()
        guard let insertStub else { throw unimplemented("ChatManager.Mocks.LegacyMessageFinder.insert") }
        let message = insertStub(conversationID, senderID, body, sentAt)
        inserted.append(message)
        return message
    }

    /// Stubs `insert` to return messages with ids `firstID`, `firstID + 1`, …
    func stubInserts(firstID: Int64 = 1) {
        var nextID = firstID
        insertStub = { conversationID, senderID, body, sentAt in
            defer { nextID += 1 }
            return Message(id: nextID, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
        }
    }
}
