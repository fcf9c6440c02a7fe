import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: muting a conversation with `ChatManager`, on `MockDB`'s own
/// in-memory key-value store. Nothing mocks the store: the tests seed it and
/// read what was committed with `MockDB`'s API.
@Suite("Unit: notification settings on MockDB's key-value store")
struct NotificationSettingsTests {
    typealias Harness = ChatManagerTests.Harness

    // snippet:begin muted-unit-test
    @Test func aMemberWhoMutedTheConversationIsNotNotified() throws {
        let h = Harness()
        h.db.seedKeyValues(["3/10": true], in: NotificationSettings.collection)   // Mallory (3) muted it

        _ = try h.chat.send("Lunch?", from: 1, in: 10)

        #expect(h.notifier.notifications.map(\.recipientIDs) == [[2]])
    }
    // snippet:end muted-unit-test

    @Test func mutingIsKeptInTheStoreAndUnmutingRemovesIt() throws {
        let h = Harness()

        #expect(try h.chat.setMuted(true, conversationID: 10, userID: 2))
        #expect(try h.chat.setMuted(true, conversationID: 10, userID: 2) == false)
        #expect(h.db.keyValues(in: NotificationSettings.collection) == ["2/10": true])
        #expect(try h.chat.isMuted(conversationID: 10, userID: 2))
        #expect(try h.chat.isMuted(conversationID: 10, userID: 1) == false)

        #expect(try h.chat.setMuted(false, conversationID: 10, userID: 2))
        #expect(h.db.keyValues(in: NotificationSettings.collection) == [:])
        #expect(try h.chat.isMuted(conversationID: 10, userID: 2) == false)
    }

    @Test func onlyMembersCanMuteAndARefusalKeepsNothing() throws {
        let h = Harness()

        #expect(throws: ChatManager.Failure.notAMember(userID: 7, conversationID: 10)) {
            try h.chat.setMuted(true, conversationID: 10, userID: 7)
        }

        #expect(h.db.keyValues(in: NotificationSettings.collection) == [:])
        #expect(h.db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }

    @Test func aCommittedMuteAppliesToLaterSendsAndARefusedBatchNotifiesNobody() throws {
        let h = Harness()
        _ = try h.chat.setMuted(true, conversationID: 10, userID: 2)
        #expect(throws: ChatManager.Failure.emptyMessage) {
            try h.chat.sendAll(["kept?", "  "], from: 1, in: 10)
        }
        _ = try h.chat.send("Lunch?", from: 1, in: 10)

        #expect(h.notifier.notifications.map(\.recipientIDs) == [[3]])
        #expect(h.db.keyValues(in: NotificationSettings.collection) == ["2/10": true])
    }
}
