import Messaging
import TransactionKit
import TransactionKitTesting

/// `InboxManager.Mocks.LegacyMessageFinder`: answers from stubs, records
/// calls, fails the test on an unstubbed call. Not thread-safe.
final class InboxManager_LegacyMessageFinderMock: InboxManager_LegacyMessageFinderShim, @unchecked Sendable {
    var latestMessageStub: ((_ conversationID: Int64) -> Message?)?
    var countMessagesStub: ((_ conversationID: Int64, _ after: Int64?, _ notSentBy: Int64) -> Int)?
    private(set) var calls: [String] = []

    func latestMessage(conversationID: Int64, _ tx: DBReadTransaction) throws -> Message? {
        tx.preconditionActive()
        calls.append("latestMessage(\(conversationID))")
        guard let latestMessageStub else { throw unimplemented("InboxManager.Mocks.LegacyMessageFinder.latestMessage") }
        return latestMessageStub(conversationID)
    }

    func countMessages(
        conversationID: Int64, after messageID: Int64?, notSentBy userID: Int64, _ tx: DBReadTransaction
    ) throws -> Int {
        tx.preconditionActive()
        calls.append("countMessages(\(conversationID), after: \(messageID.map(String.init) ?? "nil"), notSentBy: \(userID))")
        guard let countMessagesStub else { throw unimplemented("InboxManager.Mocks.LegacyMessageFinder.countMessages") }
        return countMessagesStub(conversationID, messageID, userID)
    }
}
