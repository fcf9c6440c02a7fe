import Foundation
import Messaging
import TransactionKit
import TransactionKitTesting

/// A hand-written mock of the Good-Way ``ConversationFinding``: every method
/// records its call, checks that the transaction is still open, and answers
/// from a stub — or fails the test through `unimplemented` when the test did
/// not stub it.
///
/// Not thread-safe: one test drives it from one thread at a time.
// snippet:begin conversation-finder-mock
final class ConversationFinderMock: ConversationFinding, @unchecked Sendable {
    // Stubs: nil means "this test does not expect the call".
    var insertConversationStub: ((_ title: String, _ memberIDs: [Int64], _ createdAt: Date) -> Conversation)?
    var conversationStub: ((_ id: Int64) -> Conversation?)?
    var memberIDsStub: ((_ conversationID: Int64) -> [Int64])?
    var conversationsStub: ((_ memberID: Int64) -> [Conversation])?
    var lastReadMessageIDStub: ((_ conversationID: Int64, _ userID: Int64) -> Int64?)?
    var setLastReadMessageIDStub: ((_ messageID: Int64, _ conversationID: Int64, _ userID: Int64) -> Void)?
    var setLastMessageAtStub: ((_ date: Date, _ conversationID: Int64) -> Void)?

    // Calls, in order, for assertions.
    private(set) var calls: [String] = []

    func insertConversation(
        title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction
    ) throws -> Conversation {
        tx.preconditionActive()
        calls.append("insertConversation(\(title), \(memberIDs))")
        guard let insertConversationStub else { throw unimplemented("ConversationFinderMock.insertConversation") }
        return insertConversationStub(title, memberIDs, createdAt)
    }
    // snippet:end conversation-finder-mock

    func conversation(id: Int64, _ tx: DBReadTransaction) throws -> Conversation? {
        tx.preconditionActive()
        calls.append("conversation(\(id))")
        guard let conversationStub else { throw unimplemented("ConversationFinderMock.conversation(id:)") }
        return conversationStub(id)
    }

    func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) throws -> [Int64] {
        tx.preconditionActive()
        calls.append("memberIDs(\(conversationID))")
        guard let memberIDsStub else { throw unimplemented("ConversationFinderMock.memberIDs(conversationID:)") }
        return memberIDsStub(conversationID)
    }

    func conversations(memberID: Int64, _ tx: DBReadTransaction) throws -> [Conversation] {
        tx.preconditionActive()
        calls.append("conversations(\(memberID))")
        guard let conversationsStub else { throw unimplemented("ConversationFinderMock.conversations(memberID:)") }
        return conversationsStub(memberID)
    }

    func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) throws -> Int64? {
        tx.preconditionActive()
        calls.append("lastReadMessageID(\(conversationID), \(userID))")
        guard let lastReadMessageIDStub else {
            throw unimplemented("ConversationFinderMock.lastReadMessageID(conversationID:userID:)")
        }
        return lastReadMessageIDStub(conversationID, userID)
    }

    func setLastReadMessageID(
        _ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction
    ) throws {
        tx.preconditionActive()
        calls.append("setLastReadMessageID(\(messageID), \(conversationID), \(userID))")
        guard let setLastReadMessageIDStub else {
            throw unimplemented("ConversationFinderMock.setLastReadMessageID(_:conversationID:userID:)")
        }
        setLastReadMessageIDStub(messageID, conversationID, userID)
    }

    func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) throws {
        tx.preconditionActive()
        calls.append("setLastMessageAt(\(conversationID))")
        guard let setLastMessageAtStub else {
            throw unimplemented("ConversationFinderMock.setLastMessageAt(_:conversationID:)")
        }
        setLastMessageAtStub(date, conversationID)
    }

    /// Stubs a conversation with these members, and accepts read marks and
    /// activity updates for it.
    func stubConversation(_ conversation: Conversation, memberIDs: [Int64]) {
        conversationStub = { $0 == conversation.id ? conversation : nil }
        memberIDsStub = { $0 == conversation.id ? memberIDs : [] }
        setLastReadMessageIDStub = { _, _, _ in }
        setLastMessageAtStub = { _, _ in }
    }
}
