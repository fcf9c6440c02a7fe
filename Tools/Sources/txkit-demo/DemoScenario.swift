import Dispatch
import Foundation
import Messaging
import TransactionKit
import TransactionKitSQLite

/// The story `txkit-demo` tells, using only the example's managers.
struct DemoScenario {
    let db: any DB
    let notifier = DemoNotifier()
    let services: MessagingServices
    /// Where the inbox badge's observer prints; the scenario waits on it
    /// after each write so that the narration stays in order.
    let observerQueue = DispatchQueue(label: "txkit-demo: inbox badge")
    let badgeLog = DemoBadgeLog()
    /// The app's legacy job, on the app's own writer.
    let importer: LegacyMessageImporter

    init(app: LegacyAppDatabase, db: SQLiteDB) {
        self.db = db
        self.services = MessagingServices.live(db: db, notifier: notifier)
        self.importer = LegacyMessageImporter(app: app, db: db, chat: services.chat)
    }

    func run() throws {
        if let alice = try services.accounts.user(named: "Alice") {
            try showEarlierRun(alice: alice)
            return
        }
        step(1, "Register users", "AccountManager -> AccountManager.Shims.LegacyUserFinder (Shortcut Way)")
        let alice = try register("Alice")
        let bob = try register("Bob")
        let carol = try register("Carol")
        let mallory = try register("Mallory")
        refused("register \"alice\"") { _ = try services.accounts.register(name: "alice") }
        refused("register \"x\"") { _ = try services.accounts.register(name: "x") }

        step(2, "Start a conversation", "ChatManager -> ConversationFinder (Good Way)")
        let lunch = try services.chat.startConversation(creatorID: alice.id, with: [bob.id, carol.id, mallory.id])
        ok("conversation \(lunch.id) \"\(lunch.title)\" (title made from the members' names)")

        step(3, "Settings and an observer", "ChatManager.setMuted -> KeyValueStore; InboxBadge -> db.observeCommits")
        ok("Mallory muted \"\(lunch.title)\": setMuted wrote \(try services.chat.setMuted(true, conversationID: lunch.id, userID: mallory.id)) (collection \"\(NotificationSettings.collection)\", key \"\(NotificationSettings.key(conversationID: lunch.id, userID: mallory.id))\")")
        ok("again: setMuted wrote \(try services.chat.setMuted(true, conversationID: lunch.id, userID: mallory.id)) (already muted)")
        let badge = try InboxBadge(inbox: services.inbox, userID: carol.id, queue: observerQueue) { [badgeLog] count in
            badgeLog.record(count)
        }
        ok("Carol's inbox badge observes commits on the message table and the store; it starts at \(badge.count)")

        step(4, "Send messages", "ChatManager: one write transaction per call; notifications run after the commit, not to Mallory (muted)")
        try send("Lunch at noon?", from: alice, in: lunch)
        try send("  Yes!   Where?  ", from: bob, in: lunch)
        print("   - Alice sends two messages in one transaction (sendAll):")
        for message in try services.chat.sendAll(["The new place on Main Street.", "I'll book a table."], from: alice.id, in: lunch.id) {
            ok("message \(message.id): \"\(message.body)\"")
        }
        showBadgeUpdates()
        refused("Carol sends \"   \"") { _ = try services.chat.send("   ", from: carol.id, in: lunch.id) }

        step(5, "Block a user", "AccountManager; a refused write rolls back and notifies nobody")
        ok("Mallory blocked: \(try services.accounts.block(userID: mallory.id))")
        refused("Mallory sends \"Buy cheap watches\"") {
            _ = try services.chat.send("Buy cheap watches", from: mallory.id, in: lunch.id)
        }
        showBadgeUpdates()
        ok("Carol's badge after the rolled-back send: still \(badge.count)")

        step(6, "Inboxes", "InboxManager -> ConversationFinder + InboxManager.Shims.LegacyMessageFinder, one read transaction each")
        for user in [alice, bob, carol, mallory] {
            try showInbox(of: user)
        }

        step(7, "Carol catches up", "InboxManager.markRead and markInboxSeen: write only when there is something new")
        ok("first markRead wrote: \(try services.inbox.markRead(conversationID: lunch.id, userID: carol.id))")
        ok("second markRead wrote: \(try services.inbox.markRead(conversationID: lunch.id, userID: carol.id))")
        ok("markInboxSeen wrote: \(try services.inbox.markInboxSeen(userID: carol.id)) (collection \"\(InboxManager.cursorCollection)\", key \"\(carol.id)\")")
        showBadgeUpdates()
        try showInbox(of: carol)

        step(8, "A legacy job calls a migrated manager", "LegacyMessageImporter: plain GRDB in the app's own write, then ChatManager.didImport through db.writeTransaction(bridging:)")
        try importFromGateway(into: lunch, dave: try register("Dave"))
        showBadgeUpdates()
        try showInbox(of: carol)
        badge.cancel()

        print("")
        print("Done. The same managers run in the unit tests on MockDB with mocked finders:")
        print("  swift test --package-path Tools --filter MessagingTests")
    }

    // MARK: - Steps

    private func showEarlierRun(alice: User) throws {
        step(1, "Reopen", "this file already holds an earlier run's data")
        print("   Nothing is registered again; here is what persisted:")
        for name in ["Alice", "Bob", "Carol", "Mallory"] {
            if let user = try services.accounts.user(named: name) {
                try showInbox(of: user)
            }
        }
        print("   Settings and cursors read back from the key-value store:")
        for name in ["Alice", "Bob", "Carol", "Mallory"] {
            guard let user = try services.accounts.user(named: name) else { continue }
            let muted = try services.inbox.inbox(for: user.id)
                .filter { try services.chat.isMuted(conversationID: $0.conversation.id, userID: user.id) }
                .map { "\"\($0.conversation.title)\"" }
            let cursor = try services.inbox.lastSeenMessageID(userID: user.id).map { "message \($0)" } ?? "never opened"
            print("   \(user.name.padding(toLength: 8, withPad: " ", startingAt: 0)) muted: \(muted.isEmpty ? "nothing" : muted.joined(separator: ", ")); inbox last seen: \(cursor); new since then: \(try services.inbox.newMessageCount(for: user.id))")
        }
    }

    private func register(_ name: String) throws -> User {
        let user = try services.accounts.register(name: name)
        notifier.remember(user)
        ok("\(user.name) registered (id \(user.id))")
        return user
    }

    private func send(_ body: String, from sender: User, in conversation: Conversation) throws {
        print("   - \(sender.name) sends \"\(body)\"")
        let message = try services.chat.send(body, from: sender.id, in: conversation.id)
        ok("committed as message \(message.id): \"\(message.body)\" (after the legacy sanitizer)")
        showBadgeUpdates()
    }

    /// The legacy import: one accepted batch, one the migrated manager
    /// refuses after the legacy code inserted a row (Dave is no member).
    private func importFromGateway(into conversation: Conversation, dave: User) throws {
        let receivedAt = Date()
        let batch = [
            LegacyMessageImporter.Record(sender: "Bob", body: "Sent from my phone: running late!", sentAt: receivedAt),
            LegacyMessageImporter.Record(sender: "Bob", body: "Order me the soup.", sentAt: receivedAt),
        ]
        print("   - the e-mail gateway's batch: \(batch.count) messages from Bob, imported in the app's own writer.write { database in … }")
        let imported = try importer.importMessages(batch, into: conversation.id)
        ok("messages \(imported.map { String($0.id) }.joined(separator: ", ")): the legacy INSERTs and ChatManager.didImport committed as one transaction")
        showBadgeUpdates()
        refused("import \"Hello all!\" from Bob, then \"Buy my book\" from Dave (no member)") {
            _ = try importer.importMessages(
                [.init(sender: "Bob", body: "Hello all!", sentAt: receivedAt),
                 .init(sender: "Dave", body: "Buy my book", sentAt: receivedAt)],
                into: conversation.id)
        }
    }

    private func showInbox(of user: User) throws {
        for entry in try services.inbox.inbox(for: user.id) {
            let preview = entry.preview.map { "\"\($0)\"" } ?? "no messages"
            print("   \(user.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(entry.conversation.title): \(entry.unreadCount) unread, latest \(preview)")
        }
    }

    /// Waits until the badge's observer handled the commits made so far,
    /// then prints what it reported.
    private func showBadgeUpdates() {
        observerQueue.sync {}
        for count in badgeLog.drain() {
            print("     commit observer, after the commit: Carol's inbox badge is now \(count)")
        }
    }

    private func step(_ number: Int, _ title: String, _ how: String) {
        print("")
        print("\(number). \(title)  [\(how)]")
    }

    private func ok(_ text: String) {
        print("   ok      \(text)")
    }

    /// Runs an action the business rules must refuse, and says why.
    private func refused(_ action: String, _ body: () throws -> Void) {
        do {
            try body()
            print("   UNEXPECTED  \(action) was accepted")
        } catch {
            print("   refused \(action): \(error) (nothing written, nobody notified)")
        }
    }
}
