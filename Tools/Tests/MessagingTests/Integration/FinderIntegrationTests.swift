import Foundation
import GRDB
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite

/// Integration tests: the real Good-Way finder and the real Shortcut-Way
/// wrappers (and, through them, the legacy classes) on an in-memory
/// `SQLiteDB` with the real migrator. They check what mocks cannot: the SQL,
/// the schema's constraints, and that the bridge reaches the right rows.
@Suite("Integration: finders and wrappers on SQLiteDB.inMemory")
struct FinderIntegrationTests {
    let db: SQLiteDB
    let users = AccountManager.Wrappers.LegacyUserFinder()
    let conversations = ConversationFinder()

    init() throws {
        db = try TestDatabases.makeMigrated()
    }

    @Test func theMigratorCreatesTheSchema() throws {
        let tables = try db.read { tx in
            try String.fetchAll(
                try SQLiteDB.shimOnlyBridge(tx),
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' AND name NOT LIKE 'transactionkit_%' ORDER BY name")
        }
        #expect(tables == ["conversation", "membership", "message", "user"])
    }

    @Test func userNamesAreUniqueRegardlessOfCase() throws {
        let alice = try db.write { tx in try users.insertUser(named: "Alice", tx) }

        let found = try db.read { tx in try users.user(named: "ALICE", tx) }
        #expect(found == alice)
        let violation = #expect(throws: DBConstraintViolation.self) {
            try db.write { tx in try users.insertUser(named: "alice", tx) }
        }
        #expect(violation?.kind == .unique)
        #expect(violation?.table == "user" && violation?.columns == ["name"])
    }

    @Test func blockingIsStored() throws {
        let user = try db.write { tx in try users.insertUser(named: "Mallory", tx) }
        try db.write { tx in try users.setBlocked(true, userID: user.id, tx) }
        #expect(try db.read { tx in try users.user(id: user.id, tx) }?.isBlocked == true)
    }

    // snippet:begin finder-integration-test
    @Test func conversationsComeMostRecentlyActiveFirst() throws {
        let (alice, bob) = try db.write { tx in
            (try users.insertUser(named: "Alice", tx), try users.insertUser(named: "Bob", tx))
        }
        let start = Date(timeIntervalSince1970: 1_000)
        let (older, newer) = try db.write { tx in
            let older = try conversations.insertConversation(
                title: "Older", memberIDs: [alice.id, bob.id], createdAt: start, tx)
            let newer = try conversations.insertConversation(
                title: "Newer", memberIDs: [alice.id], createdAt: start + 10, tx)
            return (older, newer)
        }
        #expect(try db.read { tx in try conversations.conversations(memberID: alice.id, tx) }.map(\.title)
            == ["Newer", "Older"])

        try db.write { tx in try conversations.setLastMessageAt(start + 20, conversationID: older.id, tx) }

        #expect(try db.read { tx in try conversations.conversations(memberID: alice.id, tx) }.map(\.id)
            == [older.id, newer.id])
        #expect(try db.read { tx in try conversations.memberIDs(conversationID: older.id, tx) } == [alice.id, bob.id])
    }
    // snippet:end finder-integration-test

    @Test func aMembershipNeedsAnExistingUser() throws {
        // Foreign keys are on: the mock could never tell us this.
        #expect(throws: DBConstraintViolation.self) {
            try db.write { tx in
                try conversations.insertConversation(title: "Ghosts", memberIDs: [404], createdAt: Date(), tx)
            }
        }
        #expect(try db.read { tx in try conversations.conversation(id: 1, tx) } == nil)
    }

    @Test func readMarksAndUnreadCounts() throws {
        let messageFinder = ChatManager.Wrappers.LegacyMessageFinder()
        let inboxFinder = InboxManager.Wrappers.LegacyMessageFinder()
        let (alice, bob, conversation) = try db.write { tx in
            let alice = try users.insertUser(named: "Alice", tx)
            let bob = try users.insertUser(named: "Bob", tx)
            let conversation = try conversations.insertConversation(
                title: "Lunch", memberIDs: [alice.id, bob.id], createdAt: Date(), tx)
            return (alice, bob, conversation)
        }
        let sent = try db.write { tx in
            try ["a", "b", "c"].map { body in
                try messageFinder.insert(
                    conversationID: conversation.id, senderID: alice.id, body: body, sentAt: Date(), tx)
            }
        }
        try db.write { tx in
            _ = try messageFinder.insert(conversationID: conversation.id, senderID: bob.id, body: "d", sentAt: Date(), tx)
            try conversations.setLastReadMessageID(sent[0].id, conversationID: conversation.id, userID: bob.id, tx)
        }

        let observed = try db.read { tx in
            (
                bobsMark: try conversations.lastReadMessageID(conversationID: conversation.id, userID: bob.id, tx),
                alicesMark: try conversations.lastReadMessageID(conversationID: conversation.id, userID: alice.id, tx),
                unreadForBob: try inboxFinder.countMessages(
                    conversationID: conversation.id, after: sent[0].id, notSentBy: bob.id, tx),
                unreadForAlice: try inboxFinder.countMessages(
                    conversationID: conversation.id, after: nil, notSentBy: alice.id, tx),
                latest: try inboxFinder.latestMessage(conversationID: conversation.id, tx)
            )
        }

        #expect(observed.bobsMark == sent[0].id)
        #expect(observed.alicesMark == nil)
        #expect(observed.unreadForBob == 2)  // Bob's own message is not unread for him.
        #expect(observed.unreadForAlice == 1)
        #expect(observed.latest?.body == "d")
    }

    @Test func theLegacySanitizerRunsThroughItsWrapper() throws {
        let sanitizer = ChatManager.Wrappers.LegacyMessageSanitizer()
        let cleaned = try db.read { tx in
            try sanitizer.sanitize("  Hello   there \n\n\n  second\tline  \n\n", tx)
        }
        #expect(cleaned == "Hello there\n\nsecond line")
    }
}
