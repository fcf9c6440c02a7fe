import Foundation
import Messaging
import TransactionKit
import TransactionKitTesting

/// `ChatManager.Mocks.LegacyMessageFinder`: a mock of `ChatManager_LegacyMessageFinderShim`, one `MockMethod` per method.
final class ChatManager_LegacyMessageFinderMock: ChatManager_LegacyMessageFinderShim, Sendable {
    let insert = MockMethod<(conversationID: Int64, senderID: Int64, body: String, sentAt: Date), Message>()

    func insert(
        conversationID: Int64, senderID: Int64, body: String, sentAt: Date, _ tx: DBWriteTransaction
    ) throws -> Message {
        try insert.call((conversationID, senderID, body, sentAt), tx, in: self)
    }
}
