import Foundation
import Messaging
import PostgresTestSupport
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTesting
@testable import txkit_demo

/// `txkit-demo --postgres`, run in the test process against the server of
/// Scripts/with-postgres.sh, on a database of its own.
@Suite(
    "txkit-demo --postgres",
    .enabled(
        if: FreshPostgresDatabase.isAvailable,
        "needs a PostgreSQL server: run Scripts/with-postgres.sh swift test --package-path Tools --filter PostgresDemoTests"))
struct PostgresDemoTests {
    @Test func theDemoRunsEndToEndAndLeavesOnlyTheCommittedMessages() async throws {
        try await FreshPostgresDatabase.with { configuration in
            let lines = Locked<[String]>([])
            let demo = PostgresDemo(configuration: configuration, tag: "test") { line in
                lines.withValue { $0.append(line) }
            }

            try await demo.run()

            let output = lines.value.joined(separator: "\n")
            #expect(!output.contains("UNEXPECTED"))
            #expect(output.contains("migrated (v1: users, conversations and messages)"))
            #expect(output.contains("Alice-test registered"))
            #expect(output.contains("refused register \"ALICE-TEST\""))
            #expect(output.contains("nameTaken"))
            #expect(output.contains("refused Alice-test sends"))
            #expect(output.contains("emptyMessage"))
            #expect(output.contains("unread count: 2 before, 2 after"))
            #expect(output.contains("DBConstraintViolation, kind foreignKey"))
            #expect(output.contains("sync completion, after the commit: notify Bob-test, Carol-test"))
            #expect(output.contains("Closed the database"))

            // What the demo committed: two messages (the refused batch left
            // nothing), three users, one conversation.
            let db = try await PostgresDB.open(configuration, logger: FreshPostgresDatabase.logger)
            let messages = AsyncMessagingServices.live(db: db, notifier: SilentNotifier(), logger: FreshPostgresDatabase.logger)
            let inbox = try await messages.inbox.inbox(for: 1)
            await db.close()
            #expect(inbox.map(\.conversation.title) == ["Lunch"])
            #expect(inbox.first?.preview == "Yes!   Where?")
        }
    }

    @Test func theDemoRunsAgainOnTheSameDatabase() async throws {
        try await FreshPostgresDatabase.with { configuration in
            let first = Locked<[String]>([])
            try await PostgresDemo(configuration: configuration, tag: "one") { line in
                first.withValue { $0.append(line) }
            }.run()
            let second = Locked<[String]>([])
            try await PostgresDemo(configuration: configuration, tag: "two") { line in
                second.withValue { $0.append(line) }
            }.run()

            #expect(second.value.contains { $0.contains("already migrated (no migration to apply)") })
            #expect(!second.value.joined().contains("UNEXPECTED"))
        }
    }

    @Test func aServerThatRefusesTheConnectionFailsTheDemoWithConnectionFailed() async throws {
        var configuration = try PostgresDB.Configuration(url: try #require(FreshPostgresDatabase.serverURL))
        configuration.database = "txkit_tools_no_such_database"

        let error = await #expect(throws: DBError.self) {
            try await PostgresDemo(configuration: configuration, tag: "none") { _ in }.run()
        }

        #expect(error?.kind == .connectionFailed)
        #expect(error?.path.contains("txkit_tools_no_such_database") == true)
    }
}

/// Tells nobody.
struct SilentNotifier: MessageNotifying {
    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {}
}
