import Dispatch
import Foundation
import GRDB
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Integration tests: the settings, the inbox cursor and the inbox badge
/// with the real finders and wrappers (`MessagingServices.live`) on an
/// in-memory `SQLiteDB`, where SQLite itself reports the changed tables.
@Suite("Integration: key-value store and commit observation on SQLiteDB.inMemory", .timeLimit(.minutes(1)))
struct StoreAndObservationIntegrationTests {
    let db: SQLiteDB
    let notifier = RecordingNotifier()
    let services: MessagingServices
    let queue = DispatchQueue(label: "StoreAndObservationIntegrationTests")

    init() throws {
        db = try TestDatabases.makeMigrated()
        services = .live(db: db, notifier: notifier)
    }

    /// The live count on SQLite: the tables come from the statements the
    /// real finders ran, not from any declaration.
    @Test func theLiveCountFollowsCommittedMessagesMutesAndTheCursor() async throws {
        let alice = try services.accounts.register(name: "Alice")
        let bob = try services.accounts.register(name: "Bob")
        let lunch = try services.chat.startConversation(creatorID: alice.id, with: [bob.id])
        var counts = services.inbox.newMessageCounts(for: bob.id).makeAsyncIterator()
        #expect(try await counts.next() == 0)

        _ = try services.chat.send("Lunch?", from: alice.id, in: lunch.id)
        #expect(try await counts.next() == 1)
        _ = try services.chat.sendAll(["Noon?", "Or one?"], from: alice.id, in: lunch.id)
        #expect(try await counts.next() == 3)
        #expect(try services.chat.setMuted(true, conversationID: lunch.id, userID: bob.id))
        #expect(try await counts.next() == 0)
        #expect(try services.chat.setMuted(false, conversationID: lunch.id, userID: bob.id))
        #expect(try await counts.next() == 3)
        #expect(try services.inbox.markInboxSeen(userID: bob.id))
        #expect(try await counts.next() == 0)
    }

    @Test func theBadgeFollowsCommittedMessagesMutesAndTheCursor() throws {
        let alice = try services.accounts.register(name: "Alice")
        let bob = try services.accounts.register(name: "Bob")
        let carol = try services.accounts.register(name: "Carol")
        let lunch = try services.chat.startConversation(creatorID: alice.id, with: [bob.id, carol.id])
        let reported = Locked<[Int]>([])
        let badge = try InboxBadge(inbox: services.inbox, userID: bob.id, queue: queue) { count in
            reported.withValue { $0.append(count) }
        }

        _ = try services.chat.send("Lunch?", from: alice.id, in: lunch.id)
        queue.sync {}
        _ = try services.chat.sendAll(["Noon?", "Or one?"], from: carol.id, in: lunch.id)
        queue.sync {}
        #expect(throws: ChatManager.Failure.emptyMessage) {
            try services.chat.sendAll(["rolled back", "  "], from: alice.id, in: lunch.id)
        }
        _ = try services.chat.send("Me too", from: bob.id, in: lunch.id)   // Bob's own: no change
        queue.sync {}
        #expect(reported.value == [1, 3])

        #expect(try services.chat.setMuted(true, conversationID: lunch.id, userID: bob.id))
        queue.sync {}
        let muted = try services.chat.send("Bob muted us", from: alice.id, in: lunch.id)
        queue.sync {}
        #expect(try services.chat.setMuted(false, conversationID: lunch.id, userID: bob.id))
        queue.sync {}
        #expect(try services.inbox.markInboxSeen(userID: bob.id))
        queue.sync {}

        #expect(reported.value == [1, 3, 0, 4, 0])
        #expect(badge.count == 0)
        #expect(notifier.notifications.last == RecordingNotifier.Notification(messageID: muted.id, recipientIDs: [carol.id]))
        #expect(try services.inbox.lastSeenMessageID(userID: bob.id) == muted.id)
    }

    @Test func theSettingsAndCursorsAreRowsThatPlainSQLReads() throws {
        let alice = try services.accounts.register(name: "Alice")
        let bob = try services.accounts.register(name: "Bob")
        let lunch = try services.chat.startConversation(creatorID: alice.id, with: [bob.id])
        let message = try services.chat.send("Lunch?", from: alice.id, in: lunch.id)
        _ = try services.chat.setMuted(true, conversationID: lunch.id, userID: alice.id)
        _ = try services.inbox.markInboxSeen(userID: bob.id)

        let rows = try db.read { tx in
            try Row.fetchAll(
                SQLiteDB.shimOnlyBridge(tx),
                sql: "SELECT collection, key, value FROM transactionkit_key_value ORDER BY collection")
        }

        #expect(rows.map { [$0["collection"], $0["key"], $0["value"]] as [DatabaseValue] } == [
            ["inboxLastSeen".databaseValue, "\(bob.id)".databaseValue, message.id.databaseValue],
            ["mutedConversations".databaseValue, "\(alice.id)/\(lunch.id)".databaseValue, 1.databaseValue],
        ])
        #expect(try services.inbox.newMessageCount(for: bob.id) == 0)
        #expect(try services.chat.isMuted(conversationID: lunch.id, userID: alice.id))
    }
}
