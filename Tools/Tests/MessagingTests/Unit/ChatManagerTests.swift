import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `ChatManager` on `MockDB`, with a mocked Good-Way finder and
/// mocked Shortcut-Way shims.
@Suite("Unit: ChatManager on MockDB")
struct ChatManagerTests {
    /// A manager on MockDB with every dependency mocked, and a few stubs
    /// most tests share: Alice (1) and Bob (2) in conversation 10, Mallory (3)
    /// blocked, a sanitizer that trims.
    struct Harness {
        let db = MockDB()
        let conversations = ConversationFinderMock()
        let users = ChatManager.Mocks.LegacyUserFinder()
        let messages = ChatManager.Mocks.LegacyMessageFinder()
        let sanitizer = ChatManager.Mocks.LegacyMessageSanitizer()
        let notifier = RecordingNotifier()
        let conversation = Conversation(id: 10, title: "Alice, Bob", createdAt: Date(timeIntervalSince1970: 0))

        init() {
            users.stubUsers([
                User(id: 1, name: "Alice"), User(id: 2, name: "Bob"), User(id: 3, name: "Mallory", isBlocked: true),
            ])
            conversations.stubConversation(conversation, memberIDs: [1, 2, 3])
            sanitizer.sanitizeStub = { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            messages.stubInserts(firstID: 100)
        }

        var chat: ChatManager {
            ChatManager(
                db: db, conversations: conversations, users: users, messages: messages,
                sanitizer: sanitizer, notifier: notifier)
        }
    }

    // MARK: Starting a conversation

    @Test func theDefaultTitleListsTheMembersAlphabetically() throws {
        let h = Harness()
        h.users.stubUsers([User(id: 1, name: "Zoe"), User(id: 2, name: "Bob"), User(id: 4, name: "Carol")])
        var inserted: (String, [Int64])?
        h.conversations.insertConversationStub = { title, members, date in
            inserted = (title, members)
            return Conversation(id: 11, title: title, createdAt: date)
        }

        let conversation = try h.chat.startConversation(creatorID: 1, with: [4, 2, 4, 1], title: "  ")

        #expect(conversation.title == "Bob, Carol, Zoe")
        #expect(inserted?.1 == [1, 2, 4])
        #expect(h.db.commitCount == 1)
    }

    @Test func anExplicitTitleIsTrimmed() throws {
        let h = Harness()
        h.conversations.insertConversationStub = { title, _, date in Conversation(id: 11, title: title, createdAt: date) }

        let conversation = try h.chat.startConversation(creatorID: 1, with: [2], title: " Lunch \n")

        #expect(conversation.title == "Lunch")
    }

    @Test func aConversationNeedsSomeoneElse() throws {
        let h = Harness()
        #expect(throws: ChatManager.Failure.tooFewMembers) {
            try h.chat.startConversation(creatorID: 1, with: [1])
        }
        #expect(h.db.rollbackCount == 1)
    }

    @Test func unknownMembersAndBlockedCreatorsAreRefused() throws {
        let h = Harness()
        #expect(throws: ChatManager.Failure.unknownUser(99)) {
            try h.chat.startConversation(creatorID: 1, with: [2, 99])
        }
        #expect(throws: ChatManager.Failure.blocked(3)) {
            try h.chat.startConversation(creatorID: 3, with: [1])
        }
        #expect(h.conversations.calls.isEmpty)
    }

    // MARK: Sending

    // snippet:begin chat-send-test
    @Test func sendingCommitsThenNotifiesTheOtherMembers() throws {
        let h = Harness()
        let sentAt = Date(timeIntervalSince1970: 1_000)

        let message = try h.chat.send("  Lunch?  ", from: 1, in: 10, at: sentAt)

        #expect(message.body == "Lunch?")
        #expect(h.messages.inserted == [message])
        #expect(h.conversations.calls.suffix(2) == ["setLastReadMessageID(100, 10, 1)", "setLastMessageAt(10)"])
        #expect(h.notifier.notifications == [.init(messageID: 100, recipientIDs: [2, 3])])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }
    // snippet:end chat-send-test

    @Test func aNonMemberCannotSend() throws {
        let h = Harness()
        h.conversations.memberIDsStub = { _ in [2, 3] }

        #expect(throws: ChatManager.Failure.notAMember(userID: 1, conversationID: 10)) {
            try h.chat.send("Hi", from: 1, in: 10)
        }
        #expect(h.messages.inserted.isEmpty)
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.rollbackCount == 1)
    }

    @Test func aBlockedMemberCannotSend() throws {
        let h = Harness()
        #expect(throws: ChatManager.Failure.blocked(3)) { try h.chat.send("Hi", from: 3, in: 10) }
        #expect(h.sanitizer.sanitizedBodies.isEmpty)
    }

    @Test func anUnknownConversationIsRefused() throws {
        let h = Harness()
        #expect(throws: ChatManager.Failure.unknownConversation(11)) { try h.chat.send("Hi", from: 1, in: 11) }
    }

    @Test func aMessageThatSanitizesToNothingIsRefused() throws {
        let h = Harness()
        h.sanitizer.sanitizeStub = { _ in "" }
        #expect(throws: ChatManager.Failure.emptyMessage) { try h.chat.send(" \n ", from: 1, in: 10) }
        #expect(h.messages.inserted.isEmpty)
    }

    @Test func aMessageTooLongIsRefused() throws {
        let h = Harness()
        let body = String(repeating: "a", count: ChatManager.maximumMessageLength + 1)
        #expect(throws: ChatManager.Failure.messageTooLong(ChatManager.maximumMessageLength + 1)) {
            try h.chat.send(body, from: 1, in: 10)
        }
        _ = try h.chat.send(String(body.dropLast()), from: 1, in: 10)
        #expect(h.messages.inserted.count == 1)
    }

    @Test func aBatchUpdatesTheConversationOnceAndNotifiesPerMessage() throws {
        let h = Harness()

        let sent = try h.chat.sendAll(["one", "two", "three"], from: 2, in: 10)

        #expect(sent.map(\.id) == [100, 101, 102])
        #expect(h.conversations.calls.filter { $0.hasPrefix("setLastMessageAt") }.count == 1)
        #expect(h.notifier.notifications.map(\.messageID) == [100, 101, 102])
        #expect(h.db.commitCount == 1)
    }

    @Test func aBatchWithOneBadMessageSendsNothing() throws {
        let h = Harness()

        #expect(throws: ChatManager.Failure.emptyMessage) {
            try h.chat.sendAll(["one", "   ", "three"], from: 2, in: 10)
        }

        // The first message reached the (mock) finder, but the transaction
        // rolled back: no finalization, no notification.
        #expect(h.messages.inserted.count == 1)
        #expect(!h.conversations.calls.contains("setLastMessageAt(10)"))
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func nobodyIsNotifiedWhenTheCommitFails() throws {
        let h = Harness()
        h.db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "full"))

        #expect(throws: DBError.self) { try h.chat.send("Hi", from: 1, in: 10) }

        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.rollbackCount == 1)
    }
}
