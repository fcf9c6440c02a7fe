import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `GroupUpdater` after `txkit migrate`: groups and members written in one
/// write of a `MockDB`, the records behind the generated
/// `GroupUpdater.Mocks.Database`.
///
/// Adding new members also writes an info message, unarchives the thread
/// and reads the members' names through a `MessageSender`, a
/// `ThreadArchiver` and a `ContactManager` that `GroupUpdater` builds itself
/// (`lazy var … = MessageSender(dependencies:)`), which `txkit migrate`
/// left on their production initializers: on a `MockDB` they reach
/// `SQLiteDB.shimOnlyBridge`, which refuses a `MockDB` transaction. The
/// last test records that as a known issue.
final class GroupUpdaterMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dataAccess = GroupUpdater.Mocks.Database()
    let updater: GroupUpdater

    init() throws {
        updater = GroupUpdater(db: db, dependencies: try ChatMockDB.dependencies(notifying: notifications), dataAccess: dataAccess)
    }

    @Test func aGroupAndItsMembersAreInsertedInOneCommittedWrite() throws {
        dataAccess.anyInsert.returns()
        dataAccess.anyInsertGroupMember.returns()

        let thread = try updater.createGroup(groupId: "team", name: "Team", members: ["alice", "bob"], timestamp: 10)

        #expect(thread.uniqueId == "gteam" && thread.isGroup && thread.shouldBeVisible && thread.name == "Team")
        #expect(dataAccess.anyInsert.calls.map(\.uniqueId) == ["gteam"])
        #expect(dataAccess.anyInsertGroupMember.calls.map { "\($0.threadUniqueId) \($0.address) \($0.addedAtTimestamp)" } == ["gteam alice 10", "gteam bob 10"])
        let write = try #require(db.transactionLog.sharedTransaction(of: dataAccess.anyInsert, dataAccess.anyInsertGroupMember))
        #expect(write.isCommittedWrite)
    }

    @Test func membersAreAddedOnlyToAGroupThatExists() throws {
        dataAccess.anyFetch.stub { id in
            id == "calice" ? ChatThread.contactThread(address: "alice", creationTimestamp: 1) : nil
        }

        #expect(throws: ChatError.threadNotFound("gnone")) { try self.updater.addMembers(["bob"], toGroup: "gnone", timestamp: 5) }
        #expect(throws: ChatError.notAGroupThread("calice")) { try self.updater.addMembers(["bob"], toGroup: "calice", timestamp: 5) }
        #expect(dataAccess.anyFetchAll.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true, true])
    }

    @Test func addingOnlyCurrentMembersChangesNothing() throws {
        dataAccess.anyFetch.stub { _ in ChatThread(uniqueId: "gteam", name: "Team", isGroup: true, creationTimestamp: 1) }
        dataAccess.anyFetchAll.returns([GroupMember(threadUniqueId: "gteam", address: "alice", addedAtTimestamp: 1)])

        #expect(try updater.addMembers(["alice"], toGroup: "gteam", timestamp: 5) == 0)
        #expect(dataAccess.anyFetchAll.calls == ["gteam"])
        #expect(dataAccess.anyInsertGroupMember.callCount == 0)
        #expect(notifications.posted.isEmpty)
    }

    @Test func addingNewMembersReachesManagersBuiltOnTheProductionDatabase() throws {
        dataAccess.anyFetch.stub { _ in ChatThread(uniqueId: "gteam", name: "Team", isGroup: true, creationTimestamp: 1) }
        dataAccess.anyFetchAll.returns([])
        dataAccess.anyInsertGroupMember.returns()

        try withKnownIssue("GroupUpdater's own ContactManager and MessageSender wrap the storage, not the MockDB") {
            _ = try updater.addMembers(["bob"], toGroup: "gteam", timestamp: 5)
        } matching: { issue in
            issue.description.contains("shimOnlyBridge received a transaction that came from a MockDB")
        }
        #expect(dataAccess.anyInsertGroupMember.calls.map(\.address) == ["bob"])
    }
}
