import Dispatch
import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `InboxBadge` reacting to commits on `MockDB`. The key-value
/// store reports its own changes; the `message` table's changes are
/// declared by the message finder's mock, in one line
/// (`messages.insert.declaresChange(table: "message")`), when
/// `ChatManager` sends through it.
@Suite("Unit: InboxBadge on MockDB")
struct InboxBadgeTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    let queue = DispatchQueue(label: "InboxBadgeTests")

    /// Messages from others in conversation 1 after message 0, read by the
    /// count stub: what the database would hold.
    let arrived = Locked<Int>(0)
    let reported = Locked<[Int]>([])
    let db = MockDB()
    let conversations = ConversationFinderMock()
    /// What the inbox reads messages through.
    let messages = InboxManager.Mocks.LegacyMessageFinder()
    /// What `ChatManager` inserts messages through.
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
        messages.countMessages.stub { _, after, _ in arrived.value - Int(after ?? 0) }
        messages.latestMessage.stub { _ in
            let id = Int64(arrived.value)
            return Message(id: id, conversationID: 1, senderID: 9, body: "hi", sentAt: Date(timeIntervalSince1970: 0))
        }
        // snippet:begin mock-declares-change
        sentMessages.insert.stub { conversationID, senderID, body, sentAt in
            Message(id: 1, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
        }
        sentMessages.insert.declaresChange(table: "message")
        // snippet:end mock-declares-change
    }

    var inbox: InboxManager {
        InboxManager(db: db, conversations: conversations, messages: messages)
    }

    var chat: ChatManager {
        ChatManager(
            db: db, conversations: conversations, users: users, messages: sentMessages, sanitizer: sanitizer,
            notifier: SilentNotifier())
    }

    func makeBadge() throws -> InboxBadge {
        let reported = reported
        return try InboxBadge(inbox: inbox, userID: 5, queue: queue) { count in reported.withValue { $0.append(count) } }
    }

    /// User 9 sends `count` messages in one committed write; the finder
    /// mock declares the `message` table on it.
    func commitMessages(_ count: Int) throws {
        arrived.withValue { $0 += count }
        _ = try chat.sendAll(Array(repeating: "hi", count: count), from: 9, in: 1)
        queue.sync {}
    }

    // snippet:begin inbox-badge-unit-test
    @Test func theBadgeCountsAgainAfterEachCommitThatAddsMessages() throws {
        arrived.withValue { $0 = 1 }
        let badge = try makeBadge()
        #expect(badge.count == 1)

        try commitMessages(2)
        try commitMessages(1)

        #expect(reported.value == [3, 4])
        #expect(badge.count == 4)
    }
    // snippet:end inbox-badge-unit-test

    @Test func aRollbackOrAnUnrelatedTableIsNotCounted() throws {
        let badge = try makeBadge()
        conversations.insertConversation.stub { title, _, date in Conversation(id: 2, title: title, createdAt: date) }
        conversations.insertConversation.declaresChange(table: "conversation")
        conversations.insertConversation.declaresChange(table: "membership")

        arrived.withValue { $0 = 5 }   // what the count would now read, were it asked
        // The second message is refused: the first insert rolls back too.
        #expect(throws: ChatManager.Failure.emptyMessage) {
            try chat.sendAll(["hi", "  "], from: 9, in: 1)
        }
        // A dry run through the finder, rolled back on purpose.
        _ = try db.writeOrRollBack { tx -> DBWriteOutcome<Void> in
            _ = try sentMessages.insert(conversationID: 1, senderID: 9, body: "hi", sentAt: Date(), tx)
            return .rollBack(())
        }
        // A commit of tables the badge does not watch.
        _ = try chat.startConversation(creatorID: 5, with: [9], title: "Dinner")
        queue.sync {}

        #expect(sentMessages.insert.callCount == 2)
        #expect(db.statistics == MockDB.Statistics(reads: 1, writes: 3, commits: 1, rollbacks: 2))
        #expect(reported.value == [])
        #expect(badge.count == 0)
        #expect(messages.countMessages.callCount == 1)   // the first count only
    }

    @Test func theCursorAndTheSettingsInTheStoreAreObservedWithoutDeclaringAnything() throws {
        let badge = try makeBadge()
        try commitMessages(3)

        // Muting writes the settings collection: the badge counts again and
        // leaves the muted conversation out.
        #expect(try chat.setMuted(true, conversationID: 1, userID: 5))
        queue.sync {}
        #expect(try chat.setMuted(false, conversationID: 1, userID: 5))
        queue.sync {}

        // Opening the inbox moves the cursor: back to zero.
        #expect(try inbox.markInboxSeen(userID: 5))
        queue.sync {}

        #expect(reported.value == [3, 0, 3, 0])
        #expect(badge.count == 0)
        #expect(db.keyValues(in: InboxManager.cursorCollection) == ["5": 3])
    }

    @Test func aCancelledBadgeStopsCounting() throws {
        let badge = try makeBadge()
        badge.cancel()

        try commitMessages(2)

        #expect(reported.value == [])
        #expect(badge.count == 0)
    }
}
