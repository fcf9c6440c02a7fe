import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite

/// End to end: the managers on a file-backed `SQLiteDB` (WAL, the
/// production configuration), closed and reopened to show that what was
/// committed persisted and what was refused did not.
@Suite("End to end: managers on a file SQLiteDB, reopened")
struct FileDatabaseEndToEndTests {
    // snippet:begin end-to-end-test
    @Test func committedDataSurvivesReopening() throws {
        let directory = try ScratchDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("messaging.sqlite")
        let notifier = RecordingNotifier()
        let (alice, bob, conversation): (User, User, Conversation)

        do {
            let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
            let services = MessagingServices.live(db: db, notifier: notifier)
            alice = try services.accounts.register(name: "Alice")
            bob = try services.accounts.register(name: "Bob")
            conversation = try services.chat.startConversation(creatorID: alice.id, with: [bob.id], title: "Trip")
            _ = try services.chat.sendAll(["Train at 9?", "Bring snacks"], from: alice.id, in: conversation.id)
            #expect(throws: ChatManager.Failure.emptyMessage) {
                try services.chat.send("   ", from: bob.id, in: conversation.id)
            }
        }  // The last reference goes: GRDB closes the database.

        let reopened = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
        let services = MessagingServices.live(db: reopened, notifier: notifier)
        let inbox = try services.inbox.inbox(for: bob.id)

        #expect(inbox.count == 1)
        #expect(inbox.first?.conversation.title == "Trip")
        #expect(inbox.first?.unreadCount == 2)
        #expect(inbox.first?.preview == "Bring snacks")
        #expect(notifier.notifications.count == 2)
        #expect(throws: AccountManager.Failure.nameTaken("alice")) {
            try services.accounts.register(name: "alice")
        }
    }
    // snippet:end end-to-end-test

    @Test func settingsAndCursorsSurviveReopeningAndARolledBackMuteDoesNot() throws {
        let directory = try ScratchDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("messaging.sqlite")
        let (alice, bob, conversation, latest): (User, User, Conversation, Message)

        do {
            let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
            let services = MessagingServices.live(db: db, notifier: RecordingNotifier())
            alice = try services.accounts.register(name: "Alice")
            bob = try services.accounts.register(name: "Bob")
            conversation = try services.chat.startConversation(creatorID: alice.id, with: [bob.id])
            latest = try services.chat.send("Hi", from: alice.id, in: conversation.id)
            #expect(try services.chat.setMuted(true, conversationID: conversation.id, userID: alice.id))
            #expect(try services.inbox.markInboxSeen(userID: bob.id))
            #expect(throws: ChatManager.Failure.notAMember(userID: 99, conversationID: conversation.id)) {
                try services.chat.setMuted(true, conversationID: conversation.id, userID: 99)
            }
            try db.close()
        }

        let services = MessagingServices.live(
            db: try SQLiteDB(path: path, migrator: MessagingSchema.migrator), notifier: RecordingNotifier())

        #expect(try services.chat.isMuted(conversationID: conversation.id, userID: alice.id))
        #expect(try services.chat.isMuted(conversationID: conversation.id, userID: bob.id) == false)
        #expect(try services.chat.isMuted(conversationID: conversation.id, userID: 99) == false)
        #expect(try services.inbox.lastSeenMessageID(userID: bob.id) == latest.id)
        #expect(try services.inbox.newMessageCount(for: bob.id) == 0)
    }

    /// How an app without a database of its own opens one: TransactionKit
    /// opens and migrates it (`txkit-demo` plays an app that had a GRDB
    /// pool already, which it adopts).
    @Test func aNewAppOpensAFileOrAnInMemoryDatabase() throws {
        let directory = try ScratchDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("messaging.sqlite")

        // snippet:begin open-database
        let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)      // a file, in WAL mode
        let scratch = try SQLiteDB.inMemory(migrator: MessagingSchema.migrator)    // private, in memory
        // snippet:end open-database

        #expect(db.migrationsAppliedOnOpen == MessagingSchema.migrator.migrations)
        #expect(!db.isInMemory)
        #expect(scratch.isInMemory)
    }

    @Test func aMissingDirectoryIsNamedWhenOpening() throws {
        let error = #expect(throws: DBError.self) {
            try SQLiteDB(path: "/nonexistent/dir/x.sqlite", migrator: MessagingSchema.migrator)
        }
        #expect(error.map(String.init(describing:)) == """
            directory does not exist while opening /nonexistent/dir/x.sqlite (no directory at /nonexistent/dir). \
            Create the directory first, or choose a path in an existing directory.
            """)
    }

    @Test func theDatabaseFileIsPrivate() throws {
        let directory = try ScratchDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("messaging.sqlite")
        _ = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)

        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func reopeningDoesNotRerunMigrations() throws {
        let directory = try ScratchDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("messaging.sqlite")
        do {
            let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
            _ = try MessagingServices.live(db: db, notifier: RecordingNotifier()).accounts.register(name: "Alice")
        }
        for _ in 0..<2 {
            let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
            let users = AccountManager.Wrappers.LegacyUserFinder()
            #expect(try db.read { tx in try users.user(named: "Alice", tx) } != nil)
        }
    }
}
