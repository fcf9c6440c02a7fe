import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests of the managers' transaction use, read from `MockDB`'s
/// transaction log: which calls shared a transaction, which committed.
@Suite("Unit: the managers' transaction use")
struct TransactionUseTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    let quiet = Conversation(id: 2, title: "Quiet", createdAt: Date(timeIntervalSince1970: 0))

    // snippet:begin inbox-transaction-test
    @Test func theInboxReadsInOneTransaction() throws {
        let db = MockDB()
        let conversations = ConversationFinderMock()
        conversations.conversations.returns([lunch, quiet])
        conversations.lastReadMessageID.returns(nil)
        let messages = InboxManager.Mocks.LegacyMessageFinder()
        messages.countMessages.returns(2)
        messages.latestMessage.returns(nil)

        _ = try InboxManager(db: db, conversations: conversations, messages: messages).inbox(for: 5)

        // Every finder call saw one snapshot: the counts and the previews
        // cannot disagree with the list of conversations.
        let log = db.transactionLog
        let read = try #require(log.sharedTransaction(
            of: conversations.conversations, conversations.lastReadMessageID,
            messages.countMessages, messages.latestMessage))
        #expect(read.kind == .read)
        #expect(log.transactions == [read])
    }
    // snippet:end inbox-transaction-test

    @Test func aSendWritesEverythingInOneCommittedTransaction() throws {
        let h = ChatManagerTests.Harness()

        _ = try h.chat.send("Hi", from: 1, in: 10)

        let log = h.db.transactionLog
        let write = try #require(log.sharedTransaction(
            of: h.messages.insert, h.conversations.setLastReadMessageID, h.conversations.setLastMessageAt))
        #expect(write.isCommittedWrite)
        #expect(write.hooks == LoggedTransaction.Hooks(finalizations: ["conversation 10 lastMessageAt"], syncCompletions: 1))
        // The insert, then the sender's read mark, then the finalization.
        #expect(
            log.calls(to: h.conversations.setLastMessageAt, h.conversations.setLastReadMessageID, h.messages.insert)
                .map(\.member)
                == [h.messages.insert.member, h.conversations.setLastReadMessageID.member, h.conversations.setLastMessageAt.member])
    }

    // snippet:begin rolled-back-send-test
    @Test func aRolledBackSendNotifiesNobodyAndLeavesNoWriteBehind() throws {
        let h = ChatManagerTests.Harness()
        h.db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "full"))

        #expect(throws: DBError.self) { try h.chat.send("Hi", from: 1, in: 10) }

        // The finders were asked to write, but only inside the transaction
        // that rolled back: nothing of it persists, and nobody heard of it.
        #expect(h.messages.insert.callCount == 1)
        #expect(h.db.transactionLog.writes.map(\.outcome) == [.rolledBack])
        #expect(h.db.transactionLog.writes.map(\.isCommittedWrite) == [false])
        #expect(h.notifier.notifications.isEmpty)
    }
    // snippet:end rolled-back-send-test

    @Test func aSendWhoseFinalizationThrowsRollsBackEveryWriteOfIt() throws {
        let h = ChatManagerTests.Harness()
        struct Offline: Error {}
        h.conversations.setLastMessageAt.fails(with: Offline())

        #expect(throws: Offline.self) { try h.chat.send("Hi", from: 1, in: 10) }

        #expect(h.db.transactionLog.writes.map(\.outcome) == [.threw])
        #expect(h.messages.insert.transactions.map { $0?.isRolledBack } == [true])
        #expect(h.db.transactionLog.callsInRolledBackTransactions.count == 7)
        #expect(h.notifier.notifications.isEmpty)
    }
}
