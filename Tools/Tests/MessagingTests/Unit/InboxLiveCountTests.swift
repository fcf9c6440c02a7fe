import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: the inbox's live new-message count
/// (`InboxManager.newMessageCounts(for:)`) on `MockDB`. The message
/// finder's mock declares what it reads and writes, so the observation
/// knows which commits matter; each value is awaited right after the write
/// that changes it, without sleeping: the fetch runs in `next()`.
@Suite("Unit: the inbox's live count on MockDB", .timeLimit(.minutes(1)))
struct InboxLiveCountTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    /// Messages from others after message 0: what the database would hold.
    let arrived = Locked<Int>(0)
    let db = MockDB()
    let conversations = ConversationFinderMock()
    let messages = InboxManager.Mocks.LegacyMessageFinder()
    let sentMessages = ChatManager.Mocks.LegacyMessageFinder()
    let users = ChatManager.Mocks.LegacyUserFinder()
    let sanitizer = ChatManager.Mocks.LegacyMessageSanitizer()

    init() {
        conversations.conversations.returns([lunch])
        conversations.memberIDs.returns([5, 9])
        let lunch = lunch
        conversations.conversation.stub { id in id == lunch.id ? lunch : nil }
        conversations.setLastReadMessageID.returns()
        conversations.setLastMessageAt.returns()
        users.user.stub { id in User(id: id, name: "user \(id)") }
        sanitizer.sanitize.stub { $0.trimmingCharacters(in: .whitespaces) }
        let arrived = arrived
        // snippet:begin mock-declares-read
        messages.countMessages.stub { _, after, _ in arrived.value - Int(after ?? 0) }
        messages.countMessages.declaresRead(table: "message")
        // snippet:end mock-declares-read
        sentMessages.insert.stub { conversationID, senderID, body, sentAt in
            Message(id: 1, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
        }
        sentMessages.insert.declaresChange(table: "message")
    }

    var inbox: InboxManager {
        InboxManager(db: db, conversations: conversations, messages: messages)
    }

    var chat: ChatManager {
        ChatManager(
            db: db, conversations: conversations, users: users, messages: sentMessages, sanitizer: sanitizer,
            notifier: SilentNotifier())
    }

    /// User 9 sends `count` messages in one committed write.
    func send(_ count: Int) throws {
        arrived.withValue { $0 += count }
        _ = try chat.sendAll(Array(repeating: "hi", count: count), from: 9, in: 1)
    }

    // snippet:begin inbox-live-count-unit-test
    @Test func theCountFollowsEachCommitThatAddsMessages() async throws {
        arrived.withValue { $0 = 1 }
        var counts = inbox.newMessageCounts(for: 5).makeAsyncIterator()
        #expect(try await counts.next() == 1)

        try send(2)
        #expect(try await counts.next() == 3)
        try send(1)
        try send(1)
        #expect(try await counts.next() == 5)   // two commits, one fetch
        #expect(messages.countMessages.callCount == 3)
    }
    // snippet:end inbox-live-count-unit-test

    @Test func muteAndCursorChangesAreSeenThroughTheKeyValueStore() async throws {
        arrived.withValue { $0 = 2 }
        var counts = inbox.newMessageCounts(for: 5).makeAsyncIterator()
        #expect(try await counts.next() == 2)
        try await db.write { tx in try NotificationSettings().setMuted(true, conversationID: 1, userID: 5, tx) }
        #expect(try await counts.next() == 0)
        try await db.write { tx in try NotificationSettings().setMuted(false, conversationID: 1, userID: 5, tx) }
        #expect(try await counts.next() == 2)
    }

    @Test func aRolledBackSendChangesNothing() async throws {
        var counts = inbox.newMessageCounts(for: 5).makeAsyncIterator()
        #expect(try await counts.next() == 0)
        #expect(throws: ChatManager.Failure.emptyMessage) {
            try chat.sendAll(["hi", "  "], from: 9, in: 1)
        }
        try send(1)
        #expect(try await counts.next() == 1)
        #expect(messages.countMessages.callCount == 2)
    }
}
