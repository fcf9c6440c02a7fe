import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `AsyncChatManager` on `MockDB` (as an `AsyncDB`), with mocks
/// of its async finders.
@Suite("Unit: AsyncChatManager on MockDB")
struct AsyncChatManagerTests {
    /// A manager on MockDB with every finder mocked: Alice (1), Bob (2) and
    /// Mallory (3, blocked) in conversation 10; inserted messages numbered
    /// from 100.
    struct Harness {
        let db = MockDB()
        let users = AsyncUserFinderMock()
        let conversations = AsyncConversationFinderMock()
        let messages = AsyncMessageFinderMock()
        let notifier = RecordingNotifier()
        let conversation = Conversation(id: 10, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))

        init() {
            let team = [User(id: 1, name: "Alice"), User(id: 2, name: "Bob"), User(id: 3, name: "Mallory", isBlocked: true)]
            users.user.stub { id in team.first { $0.id == id } }
            let conversation = self.conversation
            conversations.conversation.stub { id in id == conversation.id ? conversation : nil }
            conversations.memberIDs.stub { id in id == conversation.id ? [1, 2, 3] : [] }
            conversations.setLastReadMessageID.returns()
            conversations.setLastMessageAt.returns()
            let nextID = Locked<Int64>(100)
            messages.insert.stub { conversationID, senderID, body, sentAt in
                let id = nextID.withValue { id in
                    defer { id += 1 }
                    return id
                }
                return Message(id: id, conversationID: conversationID, senderID: senderID, body: body, sentAt: sentAt)
            }
        }

        var chat: AsyncChatManager {
            AsyncChatManager(db: db, users: users, conversations: conversations, messages: messages, notifier: notifier)
        }
    }

    // MARK: Sending

    @Test func aSentMessageIsCommittedThenTheOtherMembersAreNotified() async throws {
        let h = Harness()

        let message = try await h.chat.send("  Lunch?  ", from: 1, in: 10)

        #expect(message.id == 100)
        #expect(message.body == "Lunch?")
        #expect(h.messages.insert.calls.map(\.body) == ["Lunch?"])
        #expect(h.conversations.setLastReadMessageID.calls.map(\.userID) == [1])
        #expect(h.conversations.setLastMessageAt.calls.map(\.conversationID) == [10])
        #expect(h.notifier.notifications == [.init(messageID: 100, recipientIDs: [2, 3])])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }

    @Test func theNotificationWaitsForTheCommit() async throws {
        let h = Harness()
        // What the database had committed when the notification went out.
        let commitsWhenNotified = Locked<[Int]>([])
        let db = h.db
        let notifier = CallbackNotifier { _, _ in
            commitsWhenNotified.withValue { $0.append(db.commitCount) }
        }
        let chat = AsyncChatManager(
            db: h.db, users: h.users, conversations: h.conversations, messages: h.messages, notifier: notifier)

        _ = try await chat.send("Lunch?", from: 2, in: 10)

        #expect(commitsWhenNotified.value == [1])
    }

    @Test func aFailedCommitNotifiesNobody() async throws {
        let h = Harness()
        h.db.failNextCommit(with: DBError(
            kind: .connectionFailed, operation: .commit, path: "MockDB", message: "the server went away"))

        let error = await #expect(throws: DBError.self) {
            _ = try await h.chat.send("Lunch?", from: 1, in: 10)
        }

        #expect(error?.isOutcomeUnknown == true)
        #expect(h.messages.insert.callCount == 1)
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func aBatchWithOneRefusedMessageIsRolledBackWhole() async throws {
        let h = Harness()

        await #expect(throws: AsyncChatManager.Failure.emptyMessage) {
            _ = try await h.chat.sendAll(["Lunch?", "   ", "At noon"], from: 1, in: 10)
        }

        // The first message reached the finder, then the transaction rolled back.
        #expect(h.messages.insert.calls.map(\.body) == ["Lunch?"])
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func aBatchIsOneTransactionWithOneNotificationPerMessage() async throws {
        let h = Harness()

        let sent = try await h.chat.sendAll(["Lunch?", "At noon"], from: 2, in: 10)

        #expect(sent.map(\.id) == [100, 101])
        #expect(h.notifier.notifications.map(\.messageID) == [100, 101])
        #expect(h.notifier.notifications.map(\.recipientIDs) == [[1, 3], [1, 3]])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }

    /// Messages the business rules refuse: body, sender, conversation, and why.
    static let refusals: [(body: String, senderID: Int64, conversationID: Int64, failure: ChatManager.Failure)] = [
        ("Hi", 1, 99, .unknownConversation(99)),
        ("Hi", 4, 10, .notAMember(userID: 4, conversationID: 10)),
        ("Hi", 3, 10, .blocked(3)),
        (" \n ", 1, 10, .emptyMessage),
        (String(repeating: "a", count: 2_001), 1, 10, .messageTooLong(2_001)),
    ]

    @Test(arguments: refusals)
    func aRefusedMessageWritesNothing(
        _ refused: (body: String, senderID: Int64, conversationID: Int64, failure: ChatManager.Failure)
    ) async throws {
        let h = Harness()

        await #expect(throws: refused.failure) {
            _ = try await h.chat.send(refused.body, from: refused.senderID, in: refused.conversationID)
        }

        #expect(h.messages.insert.callCount == 0)
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    // MARK: Conversations and constraint errors

    // snippet:begin async-unit-test-constraint
    @Test func aMemberWhoDoesNotExistSurfacesAsTheDatabasesConstraintViolation() async throws {
        let h = Harness()
        h.conversations.insertConversation.fails(with: DBConstraintViolation(
            kind: .foreignKey, table: "membership", columns: ["user_id"]))

        let violation = await #expect(throws: DBConstraintViolation.self) {
            _ = try await h.chat.startConversation(title: "Ghosts", creatorID: 1, with: [2, 404])
        }

        #expect(violation?.kind == .foreignKey)
        #expect(violation?.table == "membership")
        #expect(h.conversations.insertConversation.calls.map(\.memberIDs) == [[1, 2, 404]])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }
    // snippet:end async-unit-test-constraint

    @Test func aConversationNeedsTwoDistinctMembersAndOpensNoTransactionOtherwise() async throws {
        let h = Harness()

        await #expect(throws: AsyncChatManager.Failure.tooFewMembers) {
            _ = try await h.chat.startConversation(title: "Me", creatorID: 1, with: [1])
        }

        #expect(h.db.statistics == MockDB.Statistics())
    }

    @Test func aBlockedCreatorCannotStartAConversation() async throws {
        let h = Harness()

        await #expect(throws: AsyncChatManager.Failure.blocked(3)) {
            _ = try await h.chat.startConversation(title: "Deals", creatorID: 3, with: [1])
        }

        #expect(h.conversations.insertConversation.callCount == 0)
    }

    // MARK: Registering

    @Test func aNameTakenInTheDatabaseIsRefusedAsNameTaken() async throws {
        let h = Harness()
        h.users.insertUser.fails(with: DBConstraintViolation(kind: .unique, table: "app_user", columns: ["name"]))

        await #expect(throws: AccountManager.Failure.nameTaken("Alice")) {
            _ = try await h.chat.register(name: " Alice ")
        }

        #expect(h.users.insertUser.calls == ["Alice"])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func anInvalidNameOpensNoTransaction() async throws {
        let h = Harness()

        await #expect(throws: AccountManager.Failure.invalidName("x")) {
            _ = try await h.chat.register(name: "x")
        }

        #expect(h.users.insertUser.callCount == 0)
        #expect(h.db.statistics == MockDB.Statistics())
    }
}
