import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `ReadStateManager` after `txkit migrate`: it opens no transaction, its
/// methods run in the caller's write (here a `MockDB`'s), the records and
/// finder behind the generated `ReadStateManager.Mocks.Database`.
final class ReadStateManagerMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dataAccess = ReadStateManager.Mocks.Database()
    let manager: ReadStateManager

    init() throws {
        manager = ReadStateManager(dependencies: try ChatMockDB.dependencies(notifying: notifications), dataAccess: dataAccess)
    }

    static func incoming(_ uniqueId: String, expiresInSeconds: UInt32 = 0) -> Message {
        Message(uniqueId: uniqueId, threadUniqueId: "calice", messageType: .incoming, authorAddress: "alice", body: "Hi",
                timestamp: 100, expiresInSeconds: expiresInSeconds)
    }

    @Test func unreadMessagesAreMarkedReadTheirTimersStartedAndTheThreadUnflagged() throws {
        let messages = [Self.incoming("m1", expiresInSeconds: 60), Self.incoming("m2")]
        dataAccess.unreadIncomingMessages.returns(messages)
        dataAccess.anyUpdate.stub { message, block in block(message) }
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id, isMarkedUnread: true) }
        dataAccess.updateWith.stub { arguments in
            try ChatMockDB.associatedData(arguments.threadAssociatedData.threadUniqueId, isMarkedUnread: arguments.isMarkedUnread ?? false)
        }

        let changed = try db.write { tx in
            try manager.markAsRead(threadUniqueId: "calice", upToTimestamp: 150, readAt: 2_000, transaction: tx)
        }

        #expect(changed == 2)
        #expect(messages.map(\.isRead) == [true, true])
        #expect(messages.map(\.expiresAt) == [62_000, 0])
        #expect(dataAccess.unreadIncomingMessages.calls.map { "\($0.interactionFinder.threadUniqueId) \($0.timestamp)" } == ["calice 150"])
        #expect(dataAccess.updateWith.calls.map(\.isMarkedUnread) == [false])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.unreadIncomingMessages, dataAccess.anyUpdate, dataAccess.fetchOrDefault, dataAccess.updateWith))
        #expect(write.isCommittedWrite && write.hooks.syncCompletions == 1)
        #expect(notifications.descriptions == ["threadRead calice count=2"])
    }

    @Test func aReadThreadIsLeftAsItIs() throws {
        dataAccess.unreadIncomingMessages.returns([])
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id) }

        let changed = try db.write { tx in
            try manager.markAsRead(threadUniqueId: "calice", upToTimestamp: 150, readAt: 2_000, transaction: tx)
        }

        #expect(changed == 0)
        #expect(dataAccess.updateWith.callCount == 0)
        #expect(notifications.posted.isEmpty)
    }

    @Test func markingUnreadFlagsTheThread() throws {
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id) }
        dataAccess.updateWith.stub { arguments in
            try ChatMockDB.associatedData(arguments.threadAssociatedData.threadUniqueId, isMarkedUnread: arguments.isMarkedUnread ?? false)
        }

        try db.write { tx in try manager.markAsUnread(threadUniqueId: "calice", transaction: tx) }

        #expect(dataAccess.updateWith.calls.map(\.isMarkedUnread) == [true])
        #expect(dataAccess.updateWith.ranOnlyInCommittedWrites)
    }
}
