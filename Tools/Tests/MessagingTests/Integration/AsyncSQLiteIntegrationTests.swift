import Foundation
import GRDB
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite

/// Integration tests: the async managers that run on `PostgresDB` in
/// production (and on `MockDB` in their unit tests), wired to the SQLite
/// finders (`AsyncMessagingServices.sqlite`) on `SQLiteDB`, in memory and
/// on a file: one set of managers on every database.
@Suite("Integration: async managers on SQLiteDB")
struct AsyncSQLiteIntegrationTests {
    enum Storage: String, CaseIterable, Sendable {
        case memory, file
    }

    /// Runs `body` on a fresh, migrated database.
    func withServices(
        _ storage: Storage,
        _ body: (SQLiteDB, AsyncMessagingServices, RecordingNotifier) async throws -> Void
    ) async throws {
        let notifier = RecordingNotifier()
        switch storage {
        case .memory:
            let db = try TestDatabases.makeMigrated()
            try await body(db, .sqlite(db: db, notifier: notifier), notifier)
        case .file:
            let directory = try ScratchDirectory()
            let db = try SQLiteDB(path: directory.path("messaging.sqlite"), migrator: MessagingSchema.migrator)
            try await body(db, .sqlite(db: db, notifier: notifier), notifier)
            try db.close()
        }
    }

    func count(_ table: String, _ db: SQLiteDB) async throws -> Int {
        try await db.read { tx in try Int.fetchOne(try SQLiteDB.shimOnlyBridge(tx), sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    @Test(arguments: Storage.allCases)
    func aConversationFromSendToInbox(_ storage: Storage) async throws {
        try await withServices(storage) { _, services, notifier in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: bob.id, with: [alice.id])

            let sent = try await services.chat.sendAll(["Lunch?", "  At   noon  "], from: alice.id, in: lunch.id)
            #expect(sent.map(\.body) == ["Lunch?", "At   noon"])
            #expect(notifier.notifications.map(\.recipientIDs) == [[bob.id], [bob.id]])

            let bobsInbox = try await services.inbox.inbox(for: bob.id)
            #expect(bobsInbox.map(\.unreadCount) == [2])
            #expect(bobsInbox.first?.preview == "At   noon")
            #expect(try await services.inbox.inbox(for: alice.id).map(\.unreadCount) == [0])

            #expect(try await services.inbox.markRead(conversationID: lunch.id, userID: bob.id))
            #expect(try await services.inbox.markRead(conversationID: lunch.id, userID: bob.id) == false)
            #expect(try await services.inbox.inbox(for: bob.id).map(\.unreadCount) == [0])
        }
    }

    @Test(arguments: Storage.allCases)
    func aRefusedBatchLeavesNoRowAndNotifiesNobody(_ storage: Storage) async throws {
        try await withServices(storage) { db, services, notifier in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: alice.id, with: [bob.id])

            await #expect(throws: AsyncChatManager.Failure.emptyMessage) {
                _ = try await services.chat.sendAll(["Lunch?", "   "], from: alice.id, in: lunch.id)
            }

            #expect(try await count("message", db) == 0)
            #expect(notifier.notifications.isEmpty)
        }
    }

    @Test(arguments: Storage.allCases)
    func anUnknownMemberIsAForeignKeyViolationAndRollsBackTheConversation(_ storage: Storage) async throws {
        try await withServices(storage) { db, services, _ in
            let alice = try await services.chat.register(name: "Alice")

            let violation = await #expect(throws: DBConstraintViolation.self) {
                _ = try await services.chat.startConversation(title: "Ghosts", creatorID: alice.id, with: [alice.id + 1_000])
            }

            #expect(violation?.kind == .foreignKey)
            #expect(try await count("conversation", db) == 0)
        }
    }

    @Test(arguments: Storage.allCases)
    func aTakenNameIsRefusedWhateverItsCase(_ storage: Storage) async throws {
        try await withServices(storage) { db, services, _ in
            _ = try await services.chat.register(name: "Alice")

            await #expect(throws: AccountManager.Failure.nameTaken("ALICE")) {
                _ = try await services.chat.register(name: "ALICE")
            }

            #expect(try await count("user", db) == 1)
        }
    }

    /// Eight senders at once: the writes wait for the writer, suspended,
    /// and each commits once (SQLite runs them one at a time).
    @Test(arguments: Storage.allCases)
    func concurrentSendersAllCommitOnce(_ storage: Storage) async throws {
        try await withServices(storage) { db, services, notifier in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: alice.id, with: [bob.id])

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    let sender = index.isMultiple(of: 2) ? alice : bob
                    group.addTask { _ = try await services.chat.send("Message \(index)", from: sender.id, in: lunch.id) }
                    group.addTask { _ = try await services.inbox.inbox(for: bob.id) }
                }
                try await group.waitForAll()
            }

            #expect(try await count("message", db) == 8)
            #expect(notifier.notifications.count == 8)
        }
    }
}
