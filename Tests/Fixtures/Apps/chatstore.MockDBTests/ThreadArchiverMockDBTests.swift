import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `ThreadArchiver` after `txkit migrate`: archive and mute state on a
/// `MockDB`, the records behind the generated `ThreadArchiver.Mocks.Database`,
/// the notification after the commit.
final class ThreadArchiverMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dataAccess = ThreadArchiver.Mocks.Database()
    let archiver: ThreadArchiver

    init() throws {
        archiver = ThreadArchiver(db: db, dependencies: try ChatMockDB.dependencies(notifying: notifications), dataAccess: dataAccess)
    }

    func stubUpdates() {
        dataAccess.updateWith.stub { arguments in
            try ChatMockDB.associatedData(arguments.threadAssociatedData.threadUniqueId, isArchived: arguments.isArchived ?? false)
        }
        dataAccess.updateWithThreadAssociatedData.stub { arguments in
            try ChatMockDB.associatedData(arguments.threadAssociatedData.threadUniqueId, isMuted: arguments.isMuted ?? false)
        }
    }

    @Test func archivingSavesTheStateThenAnnouncesIt() throws {
        dataAccess.anyFetch.returns(ChatThread.contactThread(address: "alice", creationTimestamp: 1))
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id) }
        stubUpdates()

        try archiver.archiveThread(uniqueId: "calice")

        #expect(dataAccess.updateWith.calls.map { "\($0.threadAssociatedData.threadUniqueId) \($0.isArchived.map(String.init) ?? "nil")" } == ["calice true"])
        let write = try #require(db.transactionLog.sharedTransaction(of: dataAccess.anyFetch, dataAccess.fetchOrDefault, dataAccess.updateWith))
        #expect(write.isCommittedWrite && write.hooks.syncCompletions == 1)
        #expect(notifications.descriptions == ["threadArchiveStateChanged calice isArchived=true"])
    }

    @Test func anArchivedThreadIsLeftAlone() throws {
        dataAccess.anyFetch.returns(ChatThread.contactThread(address: "alice", creationTimestamp: 1))
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id, isArchived: true) }

        try archiver.archiveThread(uniqueId: "calice")

        #expect(dataAccess.updateWith.callCount == 0)
        #expect(notifications.posted.isEmpty)
    }

    @Test func anUnknownThreadIsNotArchived() throws {
        dataAccess.anyFetch.returns(nil)

        #expect(throws: ChatError.threadNotFound("cnobody")) { try self.archiver.archiveThread(uniqueId: "cnobody") }
        #expect(dataAccess.fetchOrDefault.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
    }

    @Test func unarchivingRunsInTheCallersWriteAndOnlyWhenArchived() throws {
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id, isArchived: id == "gteam") }
        stubUpdates()

        let changed = try db.write { tx in
            [try archiver.unarchiveIfNeeded(threadUniqueId: "gteam", transaction: tx),
             try archiver.unarchiveIfNeeded(threadUniqueId: "calice", transaction: tx)]
        }

        #expect(changed == [true, false])
        #expect(dataAccess.updateWith.calls.map(\.isArchived) == [false])
        #expect(dataAccess.updateWith.ranOnlyInCommittedWrites)
        #expect(db.statistics == MockDB.Statistics(writes: 1, commits: 1))
        #expect(notifications.descriptions == ["threadArchiveStateChanged gteam isArchived=false"])
    }

    @Test func mutingSavesTheMuteState() throws {
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id) }
        stubUpdates()

        try archiver.setMuted(true, threadUniqueId: "calice")

        #expect(dataAccess.updateWithThreadAssociatedData.calls.map { "\($0.threadAssociatedData.threadUniqueId) \($0.isMuted.map(String.init) ?? "nil")" } == ["calice true"])
        #expect(dataAccess.updateWithThreadAssociatedData.ranOnlyInCommittedWrites)
        #expect(notifications.posted.isEmpty)
    }
}
