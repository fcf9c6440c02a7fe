import Foundation
import Messaging
import TransactionKit
import TransactionKitTesting

/// A mock of `ConversationFinding`, one `MockMethod` per method.
// snippet:begin conversation-finder-mock
final class ConversationFinderMock: ConversationFinding, Sendable {
    let insertConversation = MockMethod<(title: String, memberIDs: [Int64], createdAt: Date), Conversation>()
    let conversation = MockMethod<Int64, Conversation?>()
    let memberIDs = MockMethod<Int64, [Int64]>()
    let conversations = MockMethod<Int64, [Conversation]>()
    let lastReadMessageID = MockMethod<(conversationID: Int64, userID: Int64), Int64?>()
    let setLastReadMessageID = MockMethod<(messageID: Int64, conversationID: Int64, userID: Int64), Void>()
    let setLastMessageAt = MockMethod<(date: Date, conversationID: Int64), Void>()

    func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) throws -> Conversation {
        try insertConversation.call((title, memberIDs, createdAt), tx, in: self)
    }
    // snippet:end conversation-finder-mock

    func conversation(id: Int64, _ tx: DBReadTransaction) throws -> Conversation? {
        try conversation.call(id, tx, in: self)
    }

    func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) throws -> [Int64] {
        try memberIDs.call(conversationID, tx, in: self)
    }

    func conversations(memberID: Int64, _ tx: DBReadTransaction) throws -> [Conversation] {
        try conversations.call(memberID, tx, in: self)
    }

    func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) throws -> Int64? {
        try lastReadMessageID.call((conversationID, userID), tx, in: self)
    }

    func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) throws {
        try setLastReadMessageID.call((messageID, conversationID, userID), tx, in: self)
    }

    func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) throws {
        try setLastMessageAt.call((date, conversationID), tx, in: self)
    }
}
