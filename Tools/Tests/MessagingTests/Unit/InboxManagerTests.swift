import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `InboxManager` on `MockDB` with mocked finders.
@Suite("Unit: InboxManager on MockDB")
struct InboxManagerTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    let quiet = Conversation(id: 2, title: "Quiet", createdAt: Date(timeIntervalSince1970: 0))

    func message(_ id: Int64, in conversationID: Int64, _ body: String) -> Message {
        Message(id: id, conversationID: conversationID, senderID: 9, body: body, sentAt: Date(timeIntervalSince1970: 0))
    }

    // snippet:begin inbox-unit-test
    @Test func theInboxCountsUnreadMessagesAndShowsAPreview() throws {
        let db = MockDB()
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch, quiet])
        conversations.lastReadMessageID.stub { conversationID, _ in conversationID == 1 ? 4 : nil }
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.countMessages.stub { conversationID, after, _ in conversationID == 1 && after == 4 ? 3 : 0 }
        messages.latestMessage.stub { conversationID in
            conversationID == 1 ? message(7, in: 1, "Pizza or sushi? I vote for the new place on Main Street") : nil
        }

        let inbox = try InboxManager(db: db, conversations: conversations, messages: messages).inbox(for: 5)

        #expect(inbox == [
            InboxEntry(conversation: lunch, unreadCount: 3, preview: "Pizza or sushi? I vote for the new plac…"),
            InboxEntry(conversation: quiet, unreadCount: 0, preview: nil),
        ])
        #expect(db.readCount == 1)
        #expect(db.writeCount == 0)
    }
    // snippet:end inbox-unit-test

    @Test(arguments: [
        ("Short", "Short"),
        ("First line\nsecond line", "First line…"),
        (String(repeating: "x", count: 40), String(repeating: "x", count: 40)),
        (String(repeating: "x", count: 41), String(repeating: "x", count: 39) + "…"),
    ])
    func previews(body: String, expected: String) throws {
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch])
        conversations.lastReadMessageID.returns(nil)
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.countMessages.returns(1)
        messages.latestMessage.returns(message(1, in: 1, body))

        let inbox = try InboxManager(db: MockDB(), conversations: conversations, messages: messages).inbox(for: 5)

        #expect(inbox.first?.preview == expected)
    }

    @Test func markingReadMovesTheMarkToTheLatestMessage() throws {
        let db = MockDB()
        let conversations = ConversationFinderMock()
        conversations.memberIDs.stub { $0 == lunch.id ? [5, 9] : [] }
        conversations.lastReadMessageID.returns(4)
        conversations.setLastReadMessageID.returns(())
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.latestMessage.returns(message(7, in: 1, "hi"))

        let changed = try InboxManager(db: db, conversations: conversations, messages: messages)
            .markRead(conversationID: 1, userID: 5)

        #expect(changed)
        #expect(conversations.setLastReadMessageID.calls.map { [$0.messageID, $0.conversationID, $0.userID] } == [[7, 1, 5]])
        #expect(db.commitCount == 1)
    }

    @Test func markingReadWritesNothingWhenUpToDate() throws {
        let conversations = ConversationFinderMock()
        conversations.memberIDs.returns([5, 9])
        conversations.lastReadMessageID.returns(7)
        // setLastReadMessageID is not stubbed: calling it would fail the test.
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.latestMessage.returns(message(7, in: 1, "hi"))

        let manager = InboxManager(db: MockDB(), conversations: conversations, messages: messages)

        #expect(try manager.markRead(conversationID: 1, userID: 5) == false)
        messages.latestMessage.returns(nil)
        #expect(try manager.markRead(conversationID: 1, userID: 5) == false)
    }

    @Test func onlyMembersCanMarkRead() throws {
        let conversations = ConversationFinderMock()
        conversations.memberIDs.returns([9])
        let manager = InboxManager(
            db: MockDB(), conversations: conversations, messages: InboxManager.Mocks.LegacyMessageFinder())

        #expect(throws: InboxManager.Failure.notAMember(userID: 5, conversationID: 1)) {
            try manager.markRead(conversationID: 1, userID: 5)
        }
    }
}
