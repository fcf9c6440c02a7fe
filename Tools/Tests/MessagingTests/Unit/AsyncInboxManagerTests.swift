import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `AsyncInboxManager` on `MockDB` (as an `AsyncDB`), with mocks
/// of its async finders.
@Suite("Unit: AsyncInboxManager on MockDB")
struct AsyncInboxManagerTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    let quiet = Conversation(id: 2, title: "Quiet", createdAt: Date(timeIntervalSince1970: 0))
    let db = MockDB()
    let conversations = AsyncConversationFinderMock()
    let messages = AsyncMessageFinderMock()

    var inbox: AsyncInboxManager {
        AsyncInboxManager(db: db, conversations: conversations, messages: messages)
    }

    func message(_ id: Int64, in conversationID: Int64, _ body: String) -> Message {
        Message(id: id, conversationID: conversationID, senderID: 9, body: body, sentAt: Date(timeIntervalSince1970: 0))
    }

    @Test func theInboxCountsUnreadMessagesAndShowsAPreviewInOneRead() async throws {
        conversations.conversations.returns([lunch, quiet])
        conversations.lastReadMessageID.stub { conversationID, _ in conversationID == 1 ? 4 : nil }
        messages.countMessages.stub { conversationID, after, _ in conversationID == 1 && after == 4 ? 3 : 0 }
        let latest = message(7, in: 1, "Pizza or sushi? I vote for the new place on Main Street")
        messages.latestMessage.stub { conversationID in conversationID == 1 ? latest : nil }

        let entries = try await inbox.inbox(for: 5)

        #expect(entries == [
            InboxEntry(conversation: lunch, unreadCount: 3, preview: "Pizza or sushi? I vote for the new plac…"),
            InboxEntry(conversation: quiet, unreadCount: 0, preview: nil),
        ])
        #expect(conversations.conversations.calls == [5])
        #expect(messages.countMessages.calls.map(\.userID) == [5, 5])
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }

    @Test func aFailingFinderFailsTheRead() async throws {
        conversations.conversations.fails(with: DBError(
            kind: .connectionFailed, operation: .read, path: "MockDB", message: "the server went away"))

        let error = await #expect(throws: DBError.self) { _ = try await inbox.inbox(for: 5) }

        #expect(error?.kind == .connectionFailed)
        #expect(error?.isOutcomeUnknown == false)
    }

    @Test func markReadWritesTheLatestMessageOnce() async throws {
        conversations.memberIDs.returns([5, 9])
        messages.latestMessage.returns(message(7, in: 1, "Hi"))
        let lastRead = Locked<Int64?>(4)
        conversations.lastReadMessageID.stub { _ in lastRead.value }
        conversations.setLastReadMessageID.stub { messageID, _, _ in lastRead.setValue(messageID) }

        #expect(try await inbox.markRead(conversationID: 1, userID: 5))
        #expect(try await inbox.markRead(conversationID: 1, userID: 5) == false)

        #expect(conversations.setLastReadMessageID.calls.map(\.messageID) == [7])
        #expect(db.statistics == MockDB.Statistics(writes: 2, commits: 2))
    }

    @Test func onlyAMemberCanMarkAConversationRead() async throws {
        conversations.memberIDs.returns([9])

        await #expect(throws: AsyncInboxManager.Failure.notAMember(userID: 5, conversationID: 1)) {
            _ = try await inbox.markRead(conversationID: 1, userID: 5)
        }

        #expect(db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }
}
