import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `MessageSender` after `txkit migrate`: its records behind the generated
/// `MessageSender.Mocks.Database`, the search index behind
/// `MessageSender.Mocks.SearchIndexer`. The storage's `asyncWrite` stays
/// the storage's, behind the same shim: here its stub runs the block in a
/// write of the `MockDB` and then calls the completion, as the storage does
/// on its queue.
final class MessageSenderMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dependencies: Dependencies
    let dataAccess = MessageSender.Mocks.Database()
    let searchIndexer = MessageSender.Mocks.SearchIndexer()
    let sender: MessageSender
    let delegate = SentMessages()

    init() throws {
        dependencies = try ChatMockDB.dependencies(notifying: notifications)
        sender = MessageSender(db: db, dependencies: dependencies, searchIndexer: searchIndexer, dataAccess: dataAccess)
        sender.delegate = delegate
        let db = self.db
        dataAccess.asyncWrite.stub { _, closures in
            do {
                try db.write { tx in try closures.block(tx) }
                closures.completion?(nil)
            } catch {
                closures.completion?(error)
            }
        }
    }

    final class SentMessages: MessageSenderDelegate {
        var uniqueIds: [String] = []
        func messageSender(_ messageSender: MessageSender, didSend message: Message) { uniqueIds.append(message.uniqueId) }
    }

    func stubPersistence(thread: ChatThread?) {
        dataAccess.anyFetch.returns(thread)
        dataAccess.anyInsert.stub { message in message.id = 77 }
        dataAccess.anyUpdate.stub { thread, block in block(thread) }
        dataAccess.anyInsertReceipt.stub { receipt in
            var saved = receipt
            saved.id = 1
            return saved
        }
        searchIndexer.indexMessage.returns()
    }

    @Test func anEnqueuedMessageIsWrittenWithItsReceiptsThenAnnounced() throws {
        let thread = ChatThread.contactThread(address: "alice", creationTimestamp: 1)
        stubPersistence(thread: thread)
        dataAccess.contact.returns(nil)
        let message = Message(uniqueId: "m1", threadUniqueId: thread.uniqueId, messageType: .outgoing, body: "Hi",
                              timestamp: 1_000, expiresInSeconds: 60)
        var completed: [String] = []

        sender.enqueue(message) { error in completed.append(error.map { "\($0)" } ?? "ok") }

        #expect(completed == ["ok"])
        #expect(message.deliveryState == .sent && message.expireStartedAt == 1_000)
        #expect(thread.shouldBeVisible && thread.lastInteractionRowId == 77 && thread.lastMessageTimestamp == 1_000)
        #expect(dataAccess.anyFetch.calls == ["calice"])
        #expect(dataAccess.contact.calls.map(\.address) == ["alice"])
        #expect(dataAccess.contact.calls.allSatisfy { $0.contactStore === dependencies.contactStore })
        #expect(dataAccess.anyInsertReceipt.calls.map { "\($0.recipientAddress) \($0.type) \($0.timestamp)" } == ["alice sent 1000"])
        #expect(searchIndexer.indexMessage.calls.map(\.uniqueId) == ["m1"])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.anyFetch, dataAccess.anyInsert, dataAccess.anyUpdate, dataAccess.contact,
            dataAccess.anyInsertReceipt, searchIndexer.indexMessage))
        #expect(write.isCommittedWrite && write.hooks.syncCompletions == 1)
        #expect(notifications.descriptions == ["messageSent m1 recipients=1 thread=calice"])
        #expect(delegate.uniqueIds == ["m1"])
    }

    @Test func aGroupMessageGoesToEveryMemberButTheBlockedOnes() throws {
        let group = ChatThread(uniqueId: "gteam", name: "Team", isGroup: true, creationTimestamp: 1)
        stubPersistence(thread: group)
        dataAccess.anyFetchAll.returns([
            GroupMember(threadUniqueId: "gteam", address: "bob", addedAtTimestamp: 1),
            GroupMember(threadUniqueId: "gteam", address: "mallory", addedAtTimestamp: 1),
        ])
        dataAccess.contact.stub { _, address in
            var contact = Contact(address: address)
            contact.isBlocked = address == "mallory"
            return contact
        }

        sender.enqueue(Message(uniqueId: "m2", threadUniqueId: "gteam", messageType: .outgoing, body: "Lunch?", timestamp: 2_000))

        #expect(dataAccess.anyFetchAll.calls == ["gteam"])
        #expect(dataAccess.anyInsertReceipt.calls.map(\.recipientAddress) == ["bob"])
        #expect(notifications.descriptions == ["messageSent m2 recipients=1 thread=gteam"])
    }

    @Test func aMessageToAnUnknownThreadRollsBackAndReportsTheError() throws {
        dataAccess.anyFetch.returns(nil)
        var completed: [ChatError?] = []

        sender.enqueue(Message(uniqueId: "m3", threadUniqueId: "cnobody", messageType: .outgoing, body: "?", timestamp: 3)) { error in
            completed.append(error as? ChatError)
        }

        #expect(completed == [ChatError.threadNotFound("cnobody")])
        #expect(dataAccess.anyInsert.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
        #expect(notifications.posted.isEmpty && delegate.uniqueIds.isEmpty)
    }

    @Test func anInfoMessageIsWrittenInTheCallersTransaction() throws {
        let group = ChatThread(uniqueId: "gteam", name: "Team", isGroup: true, creationTimestamp: 1)
        group.lastMessageTimestamp = 9_000
        stubPersistence(thread: group)

        try db.write { tx in
            try sender.insertInfoMessage("Dave joined the group", threadUniqueId: "gteam", uniqueId: "i1", timestamp: 5_000, transaction: tx)
        }

        let info = try #require(dataAccess.anyInsert.calls.first)
        #expect(info.messageType == .info && info.isRead && info.body == "Dave joined the group")
        #expect(group.lastInteractionRowId == 77 && group.lastMessageTimestamp == 9_000)
        #expect(dataAccess.anyInsert.ranOnlyInCommittedWrites)
        #expect(dataAccess.asyncWrite.callCount == 0)
        #expect(notifications.posted.isEmpty)
    }
}
