import Foundation
import Logging
import Messaging
import TransactionKit
import TransactionKitPostgres

/// `txkit-demo --postgres URL`: the example's async slice
/// (``AsyncChatManager``, ``AsyncInboxManager``) end to end on a PostgreSQL
/// server, narrated.
///
/// It migrates the database (``MessagingPostgresSchema``), registers three
/// users, starts a conversation, sends messages, then shows a write the
/// business rules refuse (rolled back, nothing stored) and one the database
/// refuses (a foreign-key violation, reported as `DBConstraintViolation`),
/// the inboxes, and closes the database.
///
/// The database keeps what the demo wrote. User names carry a tag of the
/// run (`Alice-k3f9`), so that the demo can run again on the same database.
struct PostgresDemo {
    /// Where to connect.
    let configuration: PostgresDB.Configuration
    /// The run's tag, appended to user names.
    let tag: String
    /// Where the narration goes: standard output by default.
    let output: @Sendable (String) -> Void

    init(
        configuration: PostgresDB.Configuration,
        tag: String = PostgresDemo.randomTag(),
        output: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.configuration = configuration
        self.tag = tag
        self.output = output
    }

    /// Opens, migrates, runs the story, and closes the database (also when
    /// the story fails).
    func run() async throws {
        output("TransactionKit demo: the messaging example's async slice on PostgreSQL")
        output("")
        // snippet:begin postgres-open-migrate-close
        let db = try await PostgresDB.open(configuration)
        do {
            let applied = try await MessagingPostgresSchema.migrator.migrate(db)
            reportOpening(db, applied: applied)
            try await story(db)
        } catch {
            await db.close()
            throw error
        }
        await db.close()
        // snippet:end postgres-open-migrate-close
        output("")
        output("Closed the database (await db.close(): running transactions finish, connections close).")
        output("The same managers run in the unit tests on MockDB with mocked finders:")
        output("  swift test --package-path Tools --filter AsyncChatManagerTests")
    }

    private func story(_ db: PostgresDB) async throws {
        let notifier = DemoNotifier(output: output)
        let services = AsyncMessagingServices.live(db: db, notifier: notifier)
        let chat = services.chat

        step(1, "Register users", "AsyncChatManager.register -> PostgresUserFinder, one write each")
        var users: [User] = []
        for name in ["Alice", "Bob", "Carol"] {
            let user = try await chat.register(name: "\(name)-\(tag)")
            notifier.remember(user)
            ok("\(user.name) registered (id \(user.id))")
            users.append(user)
        }
        let (alice, bob, carol) = (users[0], users[1], users[2])
        await refused("register \"\(alice.name.uppercased())\" (the unique index on lower(name))") {
            _ = try await chat.register(name: alice.name.uppercased())
        }

        step(2, "Start a conversation", "AsyncChatManager -> PostgresConversationFinder")
        let lunch = try await chat.startConversation(title: "Lunch", creatorID: alice.id, with: [bob.id, carol.id])
        ok("conversation \(lunch.id) \"\(lunch.title)\" with \(alice.name), \(bob.name), \(carol.name)")

        step(3, "Send messages", "one write transaction per call; notifications run after the commit")
        for (sender, body) in [(alice, "Lunch at noon?"), (bob, "  Yes!   Where?  ")] {
            output("   - \(sender.name) sends \"\(body)\"")
            let message = try await chat.send(body, from: sender.id, in: lunch.id)
            ok("committed as message \(message.id): \"\(message.body)\"")
        }

        step(4, "A rolled-back write", "sendAll is all or nothing: the second message is refused")
        let before = try await services.inbox.inbox(for: carol.id).first?.unreadCount ?? 0
        await refused("\(alice.name) sends [\"The new place on Main Street.\", \"   \"] in one transaction") {
            _ = try await chat.sendAll(["The new place on Main Street.", "   "], from: alice.id, in: lunch.id)
        }
        let after = try await services.inbox.inbox(for: carol.id).first?.unreadCount ?? 0
        ok("\(carol.name)'s unread count: \(before) before, \(after) after (the first message was rolled back too)")

        step(5, "A constraint error", "the database refuses a member who does not exist")
        do {
            _ = try await chat.startConversation(title: "Nobody", creatorID: alice.id, with: [Int64.max])
            output("   UNEXPECTED  a conversation with user \(Int64.max) was accepted")
        } catch let violation as DBConstraintViolation {
            output("   refused by PostgreSQL as DBConstraintViolation, kind \(violation.kind): \(violation)")
            output("           (no conversation \"Nobody\" was stored)")
        }

        step(6, "Inboxes", "AsyncInboxManager -> PostgresConversationFinder + PostgresMessageFinder, one read each")
        for user in users {
            try await showInbox(of: user, services.inbox)
        }

        step(7, "Carol catches up", "AsyncInboxManager.markRead writes only when there is something new")
        ok("first markRead wrote: \(try await services.inbox.markRead(conversationID: lunch.id, userID: carol.id))")
        ok("second markRead wrote: \(try await services.inbox.markRead(conversationID: lunch.id, userID: carol.id))")
        try await showInbox(of: carol, services.inbox)
    }

    // MARK: - Narration

    private func reportOpening(_ db: PostgresDB, applied: [String]) {
        output("Database: \(db.path)")
        let migration = applied.isEmpty
            ? "already migrated (no migration to apply)"
            : "migrated (\(applied.joined(separator: ", ")))"
        output("  opened (\(db.configuration.isolation.rawValue) writes) and \(migration)")
    }

    private func showInbox(of user: User, _ inbox: AsyncInboxManager) async throws {
        for entry in try await inbox.inbox(for: user.id) {
            let preview = entry.preview.map { "\"\($0)\"" } ?? "no messages"
            output("   \(user.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(entry.conversation.title): "
                + "\(entry.unreadCount) unread, latest \(preview)")
        }
    }

    private func step(_ number: Int, _ title: String, _ how: String) {
        output("")
        output("\(number). \(title)  [\(how)]")
    }

    private func ok(_ text: String) {
        output("   ok      \(text)")
    }

    /// Runs an action the business rules must refuse, and says why.
    private func refused(_ action: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            output("   UNEXPECTED  \(action) was accepted")
        } catch {
            output("   refused \(action): \(error) (rolled back, nobody notified)")
        }
    }

    /// Four lowercase letters or digits.
    static func randomTag() -> String {
        let characters = Array("abcdefghijkmnpqrstuvwxyz23456789")
        return String((0..<4).map { _ in characters.randomElement()! })
    }
}
