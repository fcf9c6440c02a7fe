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
    /// blocked, a sanitizer that trims, inserted messages numbered from 100.
    struct Harness {
        let db = MockDB()
        let conversations = ConversationFinderMock()
        let users = ChatManager.Mocks.LegacyUserFinder()
        let messages = ChatManager.Mocks.LegacyMessageFinder()
        let sanitizer = ChatManager.Mocks.LegacyMessageSanitizer()
        let notifier = RecordingNotifier()
        let conversation = Conversation(id: 10, title: "Alice, Bob", createdAt: Date(timeIntervalSince1970: 0))

        init() {
            let team = [User(id: 1, name: "Alice"), User(id: 2, name: "Bob"), User(id: 3, name: "Mallory", isBlocked: true)]
            users.user.stub { id in team.first { $0.id == id } }
            let conversation = self.conversation
            conversations.conversation.stub { id in id == conversation.id ? conversation : nil }
            conversations.memberIDs.stub { id in id == conversation.id ? [1, 2, 3] : [] }
            conversations.setLastReadMessageID.returns(())
            conversations.setLastMessageAt.returns(())
            sanitizer.sanitize.stub { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let nextID = Locked<Int64>(100)
            messages.insert.stub { conversationID, senderID, body, sentAt in
                let id = nextID.withValue { id in
                    defer { id += 1 }
                    return id
                }
                return Message(id: id, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
            }
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
        let team = [User(id: 1, name: "Zoe"), User(id: 2, name: "Bob"), User(id: 4, name: "Carol")]
        h.users.user.stub { id in team.first { $0.id == id } }
        h.conversations.insertConversation.stub { title, _, date in Conversation(id: 11, title: title, createdAt: date) }

        let conversation = try h.chat.startConversation(creatorID: 1, with: [4, 2, 4, 1], title: "  ")

        #expect(conversation.title == "Bob, Carol, Zoe")
        #expect(h.conversations.insertConversation.calls.map(\.memberIDs) == [[1, 2, 4]])
        #expect(h.db.commitCount == 1)
    }

    @Test func anExplicitTitleIsTrimmed() throws {
        let h = Harness()
        h.conversations.insertConversation.stub { title, _, date in Conversation(id: 11, title: title, createdAt: date) }

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
        #expect(h.conversations.insertConversation.calls.isEmpty)
    }

    // MARK: Sending

    // snippet:begin chat-send-test
    @Test func sendingCommitsThenNotifiesTheOtherMembers() throws {
        let h = Harness()
        let sentAt = Date(timeIntervalSince1970: 1_000)

        let message = try h.chat.send("  Lunch?  ", from: 1, in: 10, at: sentAt)

        #expect(message == Message(id: 100, conversationID: 10, senderID: 1, body: "Lunch?", sentAt: sentAt))
        #expect(h.messages.insert.calls.map(\.body) == ["Lunch?"])
        #expect(h.conversations.setLastReadMessageID.calls.map { [$0.messageID, $0.conversationID, $0.userID] } == [[100, 10, 1]])
        #expect(h.conversations.setLastMessageAt.calls.map(\.conversationID) == [10])
        #expect(h.notifier.notifications == [.init(messageID: 100, recipientIDs: [2, 3])])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }
    // snippet:end chat-send-test

    @Test func aNonMemberCannotSend() throws {
        let h = Harness()
        h.conversations.memberIDs.returns([2, 3])

        #expect(throws: ChatManager.Failure.notAMember(userID: 1, conversationID: 10)) {
            try h.chat.send("Hi", from: 1, in: 10)
        }
        #expect(h.messages.insert.calls.isEmpty)
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.rollbackCount == 1)
    }

    @Test func aBlockedMemberCannotSend() throws {
        let h = Harness()
        #expect(throws: ChatManager.Failure.blocked(3)) { try h.chat.send("Hi", from: 3, in: 10) }
        #expect(h.sanitizer.sanitize.calls.isEmpty)
    }

    @Test func anUnknownConversationIsRefused() throws {
        let h = Harness()
        #expect(throws: ChatManager.Failure.unknownConversation(11)) { try h.chat.send("Hi", from: 1, in: 11) }
    }

    @Test func aMessageThatSanitizesToNothingIsRefused() throws {
        let h = Harness()
        h.sanitizer.sanitize.returns("")
        #expect(throws: ChatManager.Failure.emptyMessage) { try h.chat.send(" \n ", from: 1, in: 10) }
        #expect(h.messages.insert.calls.isEmpty)
    }

    @Test func aMessageTooLongIsRefused() throws {
        let h = Harness()
        let body = String(repeating: "a", count: ChatManager.maximumMessageLength + 1)
        #expect(throws: ChatManager.Failure.messageTooLong(ChatManager.maximumMessageLength + 1)) {
            try h.chat.send(body, from: 1, in: 10)
        }
        _ = try h.chat.send(String(body.dropLast()), from: 1, in: 10)
        #expect(h.messages.insert.callCount == 1)
    }

    @Test func aBatchUpdatesTheConversationOnceAndNotifiesPerMessage() throws {
        let h = Harness()

        let sent = try h.chat.sendAll(["one", "two", "three"], from: 2, in: 10)

        #expect(sent.map(\.id) == [100, 101, 102])
        #expect(h.conversations.setLastMessageAt.callCount == 1)
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
        #expect(h.messages.insert.callCount == 1)
        #expect(h.conversations.setLastMessageAt.calls.isEmpty)
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
