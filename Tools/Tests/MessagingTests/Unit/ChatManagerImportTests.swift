import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: ``ChatManager/didImport(_:into:_:)``, the migrated method a
/// legacy job calls through `db.writeTransaction(bridging:)`, on `MockDB`
/// with mocks, like every other manager method. The test opens the
/// transaction the legacy caller would have bridged; the legacy caller
/// itself is tested on a real database (`LegacyImporterIntegrationTests`).
@Suite("Unit: ChatManager.didImport on MockDB")
struct ChatManagerImportTests {
    typealias Harness = ChatManagerTests.Harness

    /// Bob's messages as the importer hands them over, already inserted.
    static func imported(from senderID: Int64 = 2, at times: [TimeInterval]) -> [Message] {
        times.enumerated().map { index, time in
            Message(
                id: 200 + Int64(index), conversationID: 10, senderID: senderID, body: "imported \(index)",
                sentAt: Date(timeIntervalSince1970: time))
        }
    }

    // snippet:begin chat-did-import-test
    @Test func anImportMovesTheConversationAndNotifiesAfterTheCommit() throws {
        let h = Harness()
        let messages = Self.imported(at: [2_000, 3_000])

        try h.db.write { tx in
            try h.chat.didImport(messages, into: 10, tx)
            #expect(h.notifier.notifications.isEmpty)   // not before the commit
        }

        #expect(h.conversations.setLastMessageAt.calls.map(\.date) == [Date(timeIntervalSince1970: 3_000)])
        #expect(h.notifier.notifications == [
            .init(messageID: 200, recipientIDs: [1, 3]), .init(messageID: 201, recipientIDs: [1, 3]),
        ])
        #expect(h.messages.insert.calls.isEmpty)   // the caller inserted them
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }
    // snippet:end chat-did-import-test

    @Test func membersWhoMutedTheConversationAreNotNotified() throws {
        let h = Harness()
        try h.db.write { tx in try NotificationSettings().setMuted(true, conversationID: 10, userID: 3, tx) }

        try h.db.write { tx in try h.chat.didImport(Self.imported(at: [2_000]), into: 10, tx) }

        #expect(h.notifier.notifications == [.init(messageID: 200, recipientIDs: [1])])
    }

    @Test func anImportOfOlderMessagesLeavesLastMessageAtAlone() throws {
        let h = Harness()
        let conversation = Conversation(
            id: 10, title: "Alice, Bob", createdAt: Date(timeIntervalSince1970: 0),
            lastMessageAt: Date(timeIntervalSince1970: 5_000))
        h.conversations.conversation.returns(conversation)

        try h.db.write { tx in try h.chat.didImport(Self.imported(at: [2_000, 3_000]), into: 10, tx) }

        #expect(h.conversations.setLastMessageAt.calls.isEmpty)
        #expect(h.notifier.notifications.count == 2)
    }

    @Test func aSenderWhoIsNoMemberRollsBackTheCallersTransaction() throws {
        let h = Harness()
        let messages = Self.imported(at: [2_000]) + Self.imported(from: 4, at: [2_500])

        #expect(throws: ChatManager.Failure.notAMember(userID: 4, conversationID: 10)) {
            try h.db.write { tx in try h.chat.didImport(messages, into: 10, tx) }
        }

        #expect(h.conversations.setLastMessageAt.calls.isEmpty)
        #expect(h.notifier.notifications.isEmpty)
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func anUnknownConversationIsRefused() throws {
        let h = Harness()

        #expect(throws: ChatManager.Failure.unknownConversation(99)) {
            try h.db.write { tx in try h.chat.didImport(Self.imported(at: [2_000]), into: 99, tx) }
        }
        #expect(h.notifier.notifications.isEmpty)
    }

    @Test func anEmptyImportChangesNothing() throws {
        let h = Harness()

        try h.db.write { tx in try h.chat.didImport([], into: 10, tx) }

        #expect(h.conversations.setLastMessageAt.calls.isEmpty)
        #expect(h.notifier.notifications.isEmpty)
    }
}
