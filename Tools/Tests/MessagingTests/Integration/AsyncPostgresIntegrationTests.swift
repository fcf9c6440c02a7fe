import Foundation
import Messaging
import Logging
import PostgresNIO
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitPostgresTesting

// snippet:begin postgres-test-template
/// The example's PostgreSQL schema, migrated once per test process; each
/// test gets a copy (`CREATE DATABASE … TEMPLATE`), dropped after it.
enum PostgresTestDatabases {
    static let messaging = PostgresTemplate { db in
        try await MessagingPostgresSchema.migrator.migrate(db)
    }
}
// snippet:end postgres-test-template

/// Integration tests: the async managers wired to the PostgreSQL finders
/// (`AsyncMessagingServices.live`) on a real server, each test in a database
/// of its own, so that they run in parallel.
// snippet:begin postgres-integration-suite
@Suite(
    "Integration: async managers on PostgresDB",
    .enabled(
        if: PostgresTemplate.isAvailable,
        "needs a PostgreSQL server: run Scripts/with-postgres.sh swift test --package-path Tools --filter AsyncPostgresIntegrationTests"))
// snippet:end postgres-integration-suite
struct AsyncPostgresIntegrationTests {
    static let logger: Logger = PostgresTemplate.quietLogger

    /// Runs `body` on a fresh copy of the migrated template, then drops it.
    /// `configure` changes the configuration the copy is opened with.
    func withServices(
        _ configure: (inout PostgresDB.Configuration) -> Void = { _ in },
        _ body: (PostgresDB, AsyncMessagingServices, RecordingNotifier) async throws -> Void
    ) async throws {
        try await PostgresTestDatabases.messaging.withDatabase { copy in
            var configuration = copy.configuration
            configure(&configuration)
            let db = try await PostgresDB.open(configuration, logger: Self.logger)
            do {
                let notifier = RecordingNotifier()
                try await body(db, .live(db: db, notifier: notifier, logger: Self.logger), notifier)
            } catch {
                await db.close()
                throw error
            }
            await db.close()
        }
    }

    /// The number of rows of `table`, counted in a read of its own.
    func count(_ table: String, _ db: PostgresDB) async throws -> Int {
        try await db.read { tx in
            let rows = try await PostgresDB.shimOnlyBridge(tx).query(
                PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: Self.logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    @Test func aConversationFromSendToInbox() async throws {
        try await withServices { db, services, notifier in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: bob.id, with: [alice.id])

            let sent = try await services.chat.sendAll(["Lunch?", "  At   noon  "], from: alice.id, in: lunch.id)
            #expect(sent.map(\.body) == ["Lunch?", "At   noon"])
            #expect(notifier.notifications.map(\.recipientIDs) == [[bob.id], [bob.id]])

            let bobsInbox = try await services.inbox.inbox(for: bob.id)
            #expect(bobsInbox.map(\.unreadCount) == [2])
            #expect(bobsInbox.first?.preview == "At   noon")
            #expect(bobsInbox.first?.conversation.lastMessageAt != nil)
            let alicesInbox = try await services.inbox.inbox(for: alice.id)
            #expect(alicesInbox.map(\.unreadCount) == [0])

            #expect(try await services.inbox.markRead(conversationID: lunch.id, userID: bob.id))
            #expect(try await services.inbox.markRead(conversationID: lunch.id, userID: bob.id) == false)
            #expect(try await services.inbox.inbox(for: bob.id).map(\.unreadCount) == [0])
        }
    }

    @Test func theMostRecentlyActiveConversationComesFirst() async throws {
        try await withServices { _, services, _ in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let first = try await services.chat.startConversation(
                title: "First", creatorID: alice.id, with: [bob.id], at: start)
            let second = try await services.chat.startConversation(
                title: "Second", creatorID: alice.id, with: [bob.id], at: start.addingTimeInterval(60))
            #expect(try await services.inbox.inbox(for: bob.id).map(\.conversation.id) == [second.id, first.id])

            _ = try await services.chat.send("Still here", from: alice.id, in: first.id, at: start.addingTimeInterval(120))

            #expect(try await services.inbox.inbox(for: bob.id).map(\.conversation.id) == [first.id, second.id])
        }
    }

    @Test func aRefusedBatchLeavesNoRowAndNotifiesNobody() async throws {
        try await withServices { db, services, notifier in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: alice.id, with: [bob.id])

            await #expect(throws: AsyncChatManager.Failure.emptyMessage) {
                _ = try await services.chat.sendAll(["Lunch?", "   "], from: alice.id, in: lunch.id)
            }

            #expect(try await count("message", db) == 0)
            #expect(notifier.notifications.isEmpty)
            #expect(try await services.inbox.inbox(for: bob.id).first?.preview == nil)
        }
    }

    // snippet:begin postgres-integration-test
    @Test func anUnknownMemberIsTheServersForeignKeyViolationAndRollsBackTheConversation() async throws {
        try await withServices { db, services, _ in
            let alice = try await services.chat.register(name: "Alice")

            let violation = await #expect(throws: DBConstraintViolation.self) {
                _ = try await services.chat.startConversation(title: "Ghosts", creatorID: alice.id, with: [alice.id + 1_000])
            }

            #expect(violation?.kind == .foreignKey)
            #expect(violation?.table == "membership")
            #expect(violation?.path == db.path)
            #expect(try await count("conversation", db) == 0)
        }
    }
    // snippet:end postgres-integration-test

    @Test func aTakenNameIsRefusedWhateverItsCase() async throws {
        try await withServices { db, services, _ in
            _ = try await services.chat.register(name: "Alice")

            await #expect(throws: AccountManager.Failure.nameTaken("ALICE")) {
                _ = try await services.chat.register(name: "ALICE")
            }

            #expect(try await count("app_user", db) == 1)
        }
    }

    @Test func concurrentSendersAllCommitAtTheSerializableLevel() async throws {
        // Enough retries for the last of 8 writers that all touch one row.
        try await withServices({ $0.conflictRetries = 50 }) { db, services, notifier in
            let alice = try await services.chat.register(name: "Alice")
            let bob = try await services.chat.register(name: "Bob")
            let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: alice.id, with: [bob.id])

            // All update the conversation's row: PostgreSQL rolls back the
            // ones that conflict, and PostgresDB runs them again.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    let sender = index.isMultiple(of: 2) ? alice : bob
                    group.addTask { _ = try await services.chat.send("Message \(index)", from: sender.id, in: lunch.id) }
                }
                try await group.waitForAll()
            }

            #expect(try await count("message", db) == 8)
            // One notification per committed message, however many times its block ran.
            #expect(notifier.notifications.count == 8)
            #expect(Set(notifier.notifications.map(\.messageID)).count == 8)
        }
    }

    /// Alice sends through a gated finder; while her transaction waits after
    /// its insert, Bob's message commits. Bob's commit changed the
    /// conversation's row after Alice's snapshot, so her own update of that
    /// row fails as a serialization conflict (SQLSTATE 40001).
    func sendAcrossAConflict(
        _ db: PostgresDB, _ services: AsyncMessagingServices
    ) async throws -> (alices: Result<Message, any Error>, bobs: Message, gated: GatedMessageFinder, notifier: RecordingNotifier) {
        let alice = try await services.chat.register(name: "Alice")
        let bob = try await services.chat.register(name: "Bob")
        let lunch = try await services.chat.startConversation(title: "Lunch", creatorID: alice.id, with: [bob.id])
        let logger = Self.logger
        let gated = GatedMessageFinder(PostgresMessageFinder(logger: logger))
        let notifier = RecordingNotifier()
        let chat = AsyncChatManager(
            db: db, users: PostgresUserFinder(logger: logger), conversations: PostgresConversationFinder(logger: logger),
            messages: gated, notifier: notifier)

        let alicesSend = Task {
            defer { gated.abandon() }
            return try await chat.send("Lunch?", from: alice.id, in: lunch.id)
        }
        await gated.waitUntilStopped()
        let bobs = try await services.chat.send("Noon?", from: bob.id, in: lunch.id)
        gated.open()
        return (await alicesSend.result, bobs, gated, notifier)
    }

    @Test func aConflictingWriteRunsAgainAndNotifiesOnce() async throws {
        try await withServices { db, services, _ in
            let (alices, bobs, gated, notifier) = try await sendAcrossAConflict(db, services)

            let message = try alices.get()
            // The first attempt was rolled back, the second committed.
            #expect(gated.insertCount.value == 2)
            #expect(message.id > bobs.id)
            #expect(notifier.notifications == [.init(messageID: message.id, recipientIDs: [bobs.senderID])])
            #expect(try await count("message", db) == 2)
        }
    }

    @Test func withoutRetriesTheConflictIsThrownAndNothingIsCommitted() async throws {
        try await withServices({ $0.conflictRetries = 0 }) { db, services, _ in
            let (alices, _, gated, notifier) = try await sendAcrossAConflict(db, services)

            let error = try #require(alices.error as? DBError)
            #expect(error.kind == .conflict)
            #expect(error.sqlState == "40001")
            #expect(gated.insertCount.value == 1)
            #expect(notifier.notifications.isEmpty)
            #expect(try await count("message", db) == 1)
        }
    }

    @Test func migratingAgainAppliesNothing() async throws {
        try await withServices { db, _, _ in
            let migrator = MessagingPostgresSchema.migrator
            let appliedAgain = try await migrator.migrate(db)
            let applied = try await migrator.appliedMigrations(db)

            #expect(appliedAgain == [])
            #expect(applied == migrator.identifiers)
        }
    }
}
