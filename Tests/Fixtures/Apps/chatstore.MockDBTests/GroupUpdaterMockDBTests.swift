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
/// and reads the members' names through the `MessageSender`, the
/// `ThreadArchiver` and the `ContactManager` that `GroupUpdater` built
/// itself (`lazy var … = MessageSender(dependencies:)`): migrated before it,
/// they are injected now, and the test builds them on the same `MockDB`,
/// each with its own generated mocks.
final class GroupUpdaterMockDBTests {
    let db = MockDB()
    let notifications = PostedNotifications()
    let dataAccess = GroupUpdater.Mocks.Database()
    let contacts = ContactManager.Mocks.Database()
    let sends = MessageSender.Mocks.Database()
    let searchIndexer = MessageSender.Mocks.SearchIndexer()
    let archives = ThreadArchiver.Mocks.Database()
    let updater: GroupUpdater

    init() throws {
        let dependencies = try ChatMockDB.dependencies(notifying: notifications)
        updater = GroupUpdater(
            db: db, dependencies: dependencies,
            contactManager: ContactManager(db: db, dependencies: dependencies, dataAccess: contacts),
            messageSender: MessageSender(db: db, dependencies: dependencies, searchIndexer: searchIndexer, dataAccess: sends),
            threadArchiver: ThreadArchiver(db: db, dependencies: dependencies, dataAccess: archives),
            dataAccess: dataAccess)
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

    @Test func newMembersTheirInfoMessageAndTheUnarchivingShareOneWrite() throws {
        let team = ChatThread(uniqueId: "gteam", name: "Team", isGroup: true, creationTimestamp: 1)
        dataAccess.anyFetch.stub { _ in team }
        dataAccess.anyFetchAll.returns([GroupMember(threadUniqueId: "gteam", address: "alice", addedAtTimestamp: 1)])
        dataAccess.anyInsertGroupMember.returns()
        contacts.contact.returns(nil)
        sends.anyFetch.returns(team)
        sends.anyInsert.returns()
        sends.anyUpdate.stub { thread, block in block(thread) }
        archives.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id, isArchived: true) }
        archives.updateWith.stub { arguments in
            try ChatMockDB.associatedData(arguments.threadAssociatedData.threadUniqueId, isArchived: arguments.isArchived ?? false)
        }

        #expect(try updater.addMembers(["alice", "bob"], toGroup: "gteam", timestamp: 5) == 1)

        #expect(dataAccess.anyInsertGroupMember.calls.map(\.address) == ["bob"])
        #expect(contacts.contact.calls.map(\.1) == ["bob"])
        #expect(sends.anyInsert.calls.map { "\($0.uniqueId) \($0.body ?? "-")" } == ["gteam-join-5 bob joined the group"])
        #expect(team.lastMessageTimestamp == 5)
        #expect(archives.updateWith.calls.map(\.isArchived) == [false])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.anyInsertGroupMember, contacts.contact, sends.anyInsert, archives.updateWith))
        #expect(write.isCommittedWrite)
        #expect(notifications.descriptions == [
            "threadArchiveStateChanged gteam isArchived=false", "groupMembersChanged gteam added=1",
        ])
    }
}
