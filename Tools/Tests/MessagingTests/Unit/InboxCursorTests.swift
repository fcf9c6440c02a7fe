import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: the inbox cursor and the new-message count, on `MockDB`'s own
/// in-memory key-value store (seeded and inspected, never mocked) with
/// mocked finders.
@Suite("Unit: InboxManager's cursor on MockDB's key-value store")
struct InboxCursorTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    let quiet = Conversation(id: 2, title: "Quiet", createdAt: Date(timeIntervalSince1970: 0))

    func message(_ id: Int64, in conversationID: Int64) -> Message {
        Message(id: id, conversationID: conversationID, senderID: 9, body: "hi", sentAt: Date(timeIntervalSince1970: 0))
    }

    // snippet:begin inbox-cursor-unit-test
    @Test func theCountStartsAtTheCursorAndLeavesOutMutedConversations() throws {
        let db = MockDB(keyValues: [
            InboxManager.cursorCollection: ["5": 6],            // user 5 last saw message 6
            NotificationSettings.collection: ["5/2": true],     // and muted conversation 2
        ])
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch, quiet])
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.countMessages.stub { conversationID, after, notSentBy in
            conversationID == 1 && after == 6 && notSentBy == 5 ? 2 : 100
        }

        let count = try InboxManager(db: db, conversations: conversations, messages: messages).newMessageCount(for: 5)

        #expect(count == 2)
        #expect(messages.countMessages.calls.map(\.conversationID) == [1])
    }
    // snippet:end inbox-cursor-unit-test

    @Test func withoutACursorEveryMessageFromOthersCounts() throws {
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch, quiet])
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.countMessages.stub { conversationID, after, _ in after == nil ? Int(conversationID) : 100 }

        let inbox = InboxManager(db: MockDB(), conversations: conversations, messages: messages)

        #expect(try inbox.newMessageCount(for: 5) == 3)
        #expect(try inbox.lastSeenMessageID(userID: 5) == nil)
    }

    @Test func markingTheInboxSeenMovesTheCursorToTheLatestMessage() throws {
        let db = MockDB(keyValues: [InboxManager.cursorCollection: ["5": 6, "8": 1]])
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch, quiet])
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.latestMessage.stub { conversationID in conversationID == 1 ? message(9, in: 1) : message(7, in: 2) }
        let inbox = InboxManager(db: db, conversations: conversations, messages: messages)

        #expect(try inbox.markInboxSeen(userID: 5))
        #expect(try inbox.markInboxSeen(userID: 5) == false)

        #expect(db.keyValues(in: InboxManager.cursorCollection) == ["5": 9, "8": 1])
        #expect(try inbox.lastSeenMessageID(userID: 5) == 9)
    }

    @Test func anEmptyInboxWritesNoCursor() throws {
        let db = MockDB()
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch])
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.latestMessage.returns(nil)

        #expect(try InboxManager(db: db, conversations: conversations, messages: messages).markInboxSeen(userID: 5) == false)
        #expect(db.keyValues(in: InboxManager.cursorCollection) == [:])
    }

    @Test func aCursorOfTheWrongTypeIsATypedError() throws {
        let db = MockDB(keyValues: [InboxManager.cursorCollection: ["5": "yesterday"]])
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch])
        let inbox = InboxManager(
            db: db, conversations: conversations, messages: InboxManager.Mocks.LegacyMessageFinder())

        #expect(throws: KeyValueStoreError.self) { try inbox.newMessageCount(for: 5) }
    }
}
