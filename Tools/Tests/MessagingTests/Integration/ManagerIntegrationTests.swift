import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite

/// Integration tests: the managers wired to their real finders and wrappers
/// (`MessagingServices.live`) on an in-memory `SQLiteDB`.
@Suite("Integration: managers on SQLiteDB.inMemory")
struct ManagerIntegrationTests {
    let db: SQLiteDB
    let notifier = RecordingNotifier()
    let services: MessagingServices

    init() throws {
        db = try TestDatabases.makeMigrated()
        services = .live(db: db, notifier: notifier)
    }

    @Test func aTakenNameIsRefusedWhateverItsCase() throws {
        _ = try services.accounts.register(name: "Alice")
        #expect(throws: AccountManager.Failure.nameTaken("ALICE")) {
            try services.accounts.register(name: "ALICE")
        }
    }

    @Test func aConversationFromSendToInbox() throws {
        let alice = try services.accounts.register(name: "Alice")
        let bob = try services.accounts.register(name: "Bob")
        let conversation = try services.chat.startConversation(creatorID: bob.id, with: [alice.id])
        #expect(conversation.title == "Alice, Bob")

        let sent = try services.chat.sendAll(["Lunch?", "  At   noon  "], from: alice.id, in: conversation.id)
        #expect(sent.map(\.body) == ["Lunch?", "At noon"])
        #expect(notifier.notifications.map(\.recipientIDs) == [[bob.id], [bob.id]])

        let bobsInbox = try services.inbox.inbox(for: bob.id)
        #expect(bobsInbox.map(\.unreadCount) == [2])
        #expect(bobsInbox.first?.preview == "At noon")
        #expect(bobsInbox.first?.conversation.lastMessageAt != nil)
        #expect(try services.inbox.inbox(for: alice.id).map(\.unreadCount) == [0])

        #expect(try services.inbox.markRead(conversationID: conversation.id, userID: bob.id))
        #expect(try services.inbox.markRead(conversationID: conversation.id, userID: bob.id) == false)
        #expect(try services.inbox.inbox(for: bob.id).map(\.unreadCount) == [0])
    }

    @Test func aRefusedBatchLeavesNoTrace() throws {
        let alice = try services.accounts.register(name: "Alice")
        let bob = try services.accounts.register(name: "Bob")
        let conversation = try services.chat.startConversation(creatorID: alice.id, with: [bob.id])

        #expect(throws: ChatManager.Failure.emptyMessage) {
            try services.chat.sendAll(["kept?", " \n\t "], from: alice.id, in: conversation.id)
        }

        #expect(try services.inbox.inbox(for: bob.id).first?.unreadCount == 0)
        #expect(try services.inbox.inbox(for: bob.id).first?.conversation.lastMessageAt == nil)
        #expect(notifier.notifications.isEmpty)
    }

    @Test func aBlockedUserCanReadButNotSend() throws {
        let alice = try services.accounts.register(name: "Alice")
        let mallory = try services.accounts.register(name: "Mallory")
        let conversation = try services.chat.startConversation(creatorID: alice.id, with: [mallory.id])
        _ = try services.chat.send("Hi", from: alice.id, in: conversation.id)

        #expect(try services.accounts.block(userID: mallory.id))
        #expect(try services.accounts.block(userID: mallory.id) == false)

        #expect(throws: ChatManager.Failure.blocked(mallory.id)) {
            try services.chat.send("spam", from: mallory.id, in: conversation.id)
        }
        #expect(try services.inbox.inbox(for: mallory.id).first?.unreadCount == 1)
    }
}
