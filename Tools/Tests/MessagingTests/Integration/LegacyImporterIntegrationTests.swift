import Dispatch
import Foundation
import GRDB
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// Integration tests: the legacy caller, ``LegacyMessageImporter``, on a
/// real database the app opened itself (a `DatabasePool` on a file, an
/// in-memory `DatabaseQueue`) and `SQLiteDB(adopting:)` adopted, calling
/// the migrated `ChatManager` through `db.writeTransaction(bridging:)`.
/// The manager's own branches are unit tested on `MockDB`
/// (`ChatManagerImportTests`).
@Suite("Integration: a legacy job calls a migrated manager through the bridge")
struct LegacyImporterIntegrationTests {
    /// Where the app keeps its database.
    enum Storage: String, CaseIterable, CustomTestStringConvertible {
        case filePool, memoryQueue
        var testDescription: String { rawValue }
    }

    /// The app as it starts: its own database, opened and migrated by the
    /// app, adopted by TransactionKit; Alice, Bob and Carol in "Lunch".
    struct App {
        let directory: ScratchDirectory?
        let app: LegacyAppDatabase
        let db: SQLiteDB
        let notifier = RecordingNotifier()
        let services: MessagingServices
        let importer: LegacyMessageImporter
        let alice: User, bob: User, carol: User
        let lunch: Conversation

        init(_ storage: Storage) throws {
            switch storage {
            case .filePool:
                let directory = try ScratchDirectory()
                self.directory = directory
                app = try LegacyAppDatabase(path: directory.path("messaging.sqlite"))
            case .memoryQueue:
                directory = nil
                app = try LegacyAppDatabase.inMemory()
            }
            db = try app.adopt()
            services = .live(db: db, notifier: notifier)
            importer = LegacyMessageImporter(app: app, db: db, chat: services.chat)
            alice = try services.accounts.register(name: "Alice")
            bob = try services.accounts.register(name: "Bob")
            carol = try services.accounts.register(name: "Carol")
            lunch = try services.chat.startConversation(creatorID: alice.id, with: [bob.id, carol.id], title: "Lunch")
        }

        /// Messages in the table, counted by the app's legacy code.
        func messageCount() throws -> Int {
            try app.writer.read { database in try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM message") ?? 0 }
        }
    }

    // snippet:begin legacy-importer-integration-test
    @Test(arguments: Storage.allCases)
    func anImportCommitsTheLegacyRowsAndTheManagersWorkTogether(storage: Storage) throws {
        let app = try App(storage)
        #expect(try app.services.chat.setMuted(true, conversationID: app.lunch.id, userID: app.carol.id))
        let sentAt = Date(timeIntervalSince1970: 1_700_000_000)

        let imported = try app.importer.importMessages(
            [.init(sender: "bob", body: "Running late", sentAt: sentAt),
             .init(sender: "Bob", body: "Order me the soup", sentAt: sentAt)],
            into: app.lunch.id)

        // The legacy INSERTs, read back by migrated code through TransactionKit.
        let alicesInbox = try app.services.inbox.inbox(for: app.alice.id)
        #expect(alicesInbox.map(\.unreadCount) == [2])
        #expect(alicesInbox.first?.preview == "Order me the soup")
        // The manager's work, in the same transaction.
        #expect(alicesInbox.first?.conversation.lastMessageAt == sentAt)
        // Its sync completion, after the app's commit: Carol muted, Bob sent.
        #expect(app.notifier.notifications == imported.map { .init(messageID: $0.id, recipientIDs: [app.alice.id]) })
    }
    // snippet:end legacy-importer-integration-test

    @Test(arguments: Storage.allCases)
    func aRefusalOfTheManagerRollsBackTheLegacyRows(storage: Storage) throws {
        let app = try App(storage)
        let dave = try app.services.accounts.register(name: "Dave")

        #expect(throws: ChatManager.Failure.notAMember(userID: dave.id, conversationID: app.lunch.id)) {
            try app.importer.importMessages(
                [.init(sender: "Bob", body: "Kept?", sentAt: Date()),
                 .init(sender: "Dave", body: "Buy my book", sentAt: Date())],
                into: app.lunch.id)
        }

        #expect(try app.messageCount() == 0)
        #expect(try app.services.inbox.inbox(for: app.alice.id).first?.conversation.lastMessageAt == nil)
        #expect(app.notifier.notifications.isEmpty)
    }

    @Test(arguments: Storage.allCases)
    func anUnknownSenderRollsBackTheWholeBatch(storage: Storage) throws {
        let app = try App(storage)

        #expect(throws: LegacyMessageImporter.Failure.unknownSender("Eve")) {
            try app.importer.importMessages(
                [.init(sender: "Bob", body: "Kept?", sentAt: Date()), .init(sender: "Eve", body: "Hi", sentAt: Date())],
                into: app.lunch.id)
        }

        #expect(try app.messageCount() == 0)
        #expect(app.notifier.notifications.isEmpty)
    }

    @Test(arguments: Storage.allCases)
    func commitObserversHearTheBridgedCommitAndTheBadgeFollows(storage: Storage) throws {
        let app = try App(storage)
        let queue = DispatchQueue(label: "LegacyImporterIntegrationTests")
        let heard = Locked<[Set<String>]>([])
        let observation = app.db.observeCommits(tables: ["message"], queue: queue) { changes in
            heard.withValue { $0.append(changes.tables) }
        }
        defer { observation.cancel() }
        let badges = Locked<[Int]>([])
        let badge = try InboxBadge(inbox: app.services.inbox, userID: app.alice.id, queue: queue) { count in
            badges.withValue { $0.append(count) }
        }
        defer { badge.cancel() }

        _ = try app.importer.importMessages([.init(sender: "Bob", body: "Hi", sentAt: Date())], into: app.lunch.id)
        queue.sync {}

        #expect(heard.value.count == 1)
        #expect(heard.value.first?.contains("message") == true)
        #expect(badges.value == [1])
    }

    @Test func closingTheAdoptedDatabaseLeavesTheAppsPoolToTheApp() throws {
        let app = try App(.filePool)

        try app.db.close()

        #expect(throws: DBError.self) { try app.services.accounts.user(named: "Alice") }
        try app.app.writer.write { database in
            try database.execute(sql: "INSERT INTO user (name) VALUES ('Dave')")
        }
        #expect(try app.app.writer.read { database in try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM user") } == 4)
        try app.app.close()
    }
}
