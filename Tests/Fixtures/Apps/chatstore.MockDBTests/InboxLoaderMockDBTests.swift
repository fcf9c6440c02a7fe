import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import ChatCore

/// `InboxLoader` after `txkit migrate`, on a `MockDB`: the contact manager
/// behind the generated `InboxLoader.Mocks.ContactManager`, the finders'
/// calls behind `InboxLoader.Mocks.Database`. The thread finder's
/// `enumerateVisibleThreads(isArchived:_:block:)` hands each thread to a
/// block, which the stub of `InboxLoader.Mocks.ChatThreadFinder` receives.
struct InboxLoaderMockDBTests {
    let db = MockDB()
    let threadFinder = InboxLoader.Mocks.ChatThreadFinder()
    let contactManager = InboxLoader.Mocks.ContactManager()
    let dataAccess = InboxLoader.Mocks.Database()
    let loader: InboxLoader

    init() throws {
        loader = InboxLoader(db: db, dependencies: try ChatMockDB.dependencies(), threadFinder: threadFinder,
                             contactManager: contactManager, dataAccess: dataAccess)
    }

    @Test func theInboxListsEachVisibleThreadFromOneRead() throws {
        threadFinder.enumerateVisibleThreads.stub { _, block in
            var stop = false
            try block(ChatThread.contactThread(address: "alice", creationTimestamp: 1), &stop)
            try block(ChatThread(uniqueId: "gteam", name: "Team", isGroup: true, creationTimestamp: 2), &stop)
            try block(ChatThread(uniqueId: "gnameless", isGroup: true, creationTimestamp: 3), &stop)
        }
        dataAccess.fetchOrDefault.stub { id in try ChatMockDB.associatedData(id, isMarkedUnread: id == "gteam", isMuted: id == "gteam") }
        dataAccess.unreadCount.stub { finder in finder.threadUniqueId == "calice" ? 3 : 0 }
        dataAccess.mostRecentMessage.stub { finder in
            finder.threadUniqueId == "calice"
                ? Message(threadUniqueId: "calice", messageType: .incoming, body: "Are you coming to the party tonight at eight?", timestamp: 9)
                : nil
        }
        contactManager.displayName.stub { address in address.capitalized }

        let inbox = try loader.loadInbox()

        #expect(inbox == [
            InboxItem(threadUniqueId: "calice", displayName: "Alice", unreadCount: 3, isMuted: false,
                      lastMessagePreview: "Are you coming to the party toni..."),
            InboxItem(threadUniqueId: "gteam", displayName: "Team", unreadCount: 1, isMuted: true, lastMessagePreview: nil),
            InboxItem(threadUniqueId: "gnameless", displayName: "Unnamed Group", unreadCount: 0, isMuted: false, lastMessagePreview: nil),
        ])
        #expect(threadFinder.enumerateVisibleThreads.calls == [false])
        #expect(contactManager.displayName.calls == ["alice"])
        #expect(dataAccess.unreadCount.calls.map(\.threadUniqueId) == ["calice", "gteam", "gnameless"])
        let read = try #require(db.transactionLog.sharedTransaction(
            of: threadFinder.enumerateVisibleThreads, dataAccess.fetchOrDefault, dataAccess.unreadCount,
            dataAccess.mostRecentMessage, contactManager.displayName))
        #expect(read.kind == .read)
        #expect(db.transactionLog.transactions == [read])
    }

    @Test func theArchiveAsksForArchivedThreads() throws {
        threadFinder.enumerateVisibleThreads.stub { _, _ in }

        #expect(try loader.loadInbox(isArchived: true).isEmpty)
        #expect(threadFinder.enumerateVisibleThreads.calls == [true])
    }

    @Test func theBadgeCountsThroughTheLegacyFinder() throws {
        dataAccess.unreadMessageCount.stub { arguments in arguments.includeMuted ? 7 : 4 }

        #expect(try loader.badgeCount() == 4)
        #expect(try loader.badgeCount(includeMuted: true) == 7)
        #expect(dataAccess.unreadMessageCount.calls.map(\.includeMuted) == [false, true])
        #expect(db.statistics == MockDB.Statistics(reads: 2))
    }
}
