import Messaging
import TransactionKit
import TransactionKitTesting

/// `InboxManager.Mocks.LegacyMessageFinder`: a mock of `InboxManager_LegacyMessageFinderShim`, one `MockMethod` per method.
final class InboxManager_LegacyMessageFinderMock: InboxManager_LegacyMessageFinderShim, Sendable {
    let latestMessage = MockMethod<Int64, Message?>()
    let countMessages = MockMethod<(conversationID: Int64, messageID: Int64?, userID: Int64), Int>()

    func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) throws -> Message? {
        try latestMessage.call(conversationID, tx, in: self)
    }

    func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) throws -> Int {
        try countMessages.call((conversationID, messageID, userID), tx, in: self)
    }
}
