import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// The example's batch job, `InboxManager.markInboxesSeen`, on every
/// backend, with a clock the test advances: the test decides where the job
/// splits into transactions, with no sleep.
@Suite("Batch job: catching up everyone's inbox, on every backend")
struct InboxCatchUpJobTests {
    enum Backend: String, CaseIterable, Sendable {
        case mock, sqliteInMemory, sqliteFile
    }

    /// A conversation finder that advances the clock each time the job
    /// lists a user's conversations: 0.4 s a user.
    struct ClockedConversations: ConversationFinding {
        let base: any ConversationFinding
        let clock: ManualBatchClock

        func conversations(memberID: Int64, _ tx: DBReadTransaction) throws -> [Conversation] {
            clock.advance(bySeconds: 0.4)
            return try base.conversations(memberID: memberID, tx)
        }

        func insertConversation(title: String, memberIDs: [Int64], createdAt: Date, _ tx: DBWriteTransaction) throws -> Conversation {
            try base.insertConversation(title: title, memberIDs: memberIDs, createdAt: createdAt, tx)
        }
        func conversation(id: Int64, _ tx: DBReadTransaction) throws -> Conversation? {
            try base.conversation(id: id, tx)
        }
        func memberIDs(conversationID: Int64, _ tx: DBReadTransaction) throws -> [Int64] {
            try base.memberIDs(conversationID: conversationID, tx)
        }
        func lastReadMessageID(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) throws -> Int64? {
            try base.lastReadMessageID(conversationID: conversationID, userID: userID, tx)
        }
        func setLastReadMessageID(_ messageID: Int64, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction) throws {
            try base.setLastReadMessageID(messageID, conversationID: conversationID, userID: userID, tx)
        }
        func setLastMessageAt(_ date: Date, conversationID: Int64, _ tx: DBWriteTransaction) throws {
            try base.setLastMessageAt(date, conversationID: conversationID, tx)
        }
    }

    /// Five users: two pairs with a conversation each, and one without.
    struct Setup {
        let db: any DB
        let inbox: InboxManager
        let userIDs: [Int64]
        /// The latest message each user can see (none for the fifth).
        let latest: [Int64?]
        let scratch: ScratchDirectory?
    }

    func makeSetup(_ backend: Backend, clock: ManualBatchClock) throws -> Setup {
        if backend == .mock {
            let db = MockDB()
            let conversations = ConversationFinderMock()
            conversations.conversations.stub { userID in
                userID <= 4 ? [Conversation(id: (userID + 1) / 2, title: "", createdAt: Date(timeIntervalSince1970: 0))] : []
            }
            let messages = InboxManager.Mocks.LegacyMessageFinder()
            messages.latestMessage.stub { conversationID in
                Message(id: 10 * conversationID, conversationID: conversationID, senderID: 1, body: "hi",
                        sentAt: Date(timeIntervalSince1970: 0))
            }
            let inbox = InboxManager(
                db: db, conversations: ClockedConversations(base: conversations, clock: clock), messages: messages)
            return Setup(db: db, inbox: inbox, userIDs: [1, 2, 3, 4, 5], latest: [10, 10, 20, 20, nil], scratch: nil)
        }
        let scratch = backend == .sqliteFile ? try ScratchDirectory() : nil
        let db = try scratch.map { try SQLiteDB(path: $0.path("messaging.sqlite"), migrator: MessagingSchema.migrator) }
            ?? TestDatabases.makeMigrated()
        let services = MessagingServices.live(db: db, notifier: RecordingNotifier())
        let users = try (1...5).map { try services.accounts.register(name: "user\($0)").id }
        let first = try services.chat.startConversation(creatorID: users[0], with: [users[1]])
        let second = try services.chat.startConversation(creatorID: users[2], with: [users[3]])
        let hello = try services.chat.send("hello", from: users[0], in: first.id)
        let hi = try services.chat.send("hi", from: users[3], in: second.id)
        let inbox = InboxManager(
            db: db, conversations: ClockedConversations(base: ConversationFinder(), clock: clock),
            messages: InboxManager.Wrappers.LegacyMessageFinder())
        return Setup(
            db: db, inbox: inbox, userIDs: users, latest: [hello.id, hello.id, hi.id, hi.id, nil], scratch: scratch)
    }

    // snippet:begin batch-job-test
    @Test(arguments: Backend.allCases)
    func theJobCommitsOnceASecondWhereTheClockSays(_ backend: Backend) throws {
        let clock = ManualBatchClock()
        let setup = try makeSetup(backend, clock: clock)
        let commits = Locked(0)
        let queue = DispatchQueue(label: "InboxCatchUpJobTests")
        let observation = setup.db.observeCommits(queue: queue) { _ in commits.withValue { $0 += 1 } }
        defer { observation.cancel() }

        // 0.4 s a user: the first transaction ends after the third user.
        let moved = try setup.inbox.markInboxesSeen(userIDs: setup.userIDs, yieldTxAfter: 1, clock: clock)

        #expect(moved == 4)
        #expect(try setup.userIDs.map { try setup.inbox.lastSeenMessageID(userID: $0) } == setup.latest)
        queue.sync {}   // every commit enqueued its call before `write` returned
        #expect(commits.value == 2)
        if let mock = setup.db as? MockDB {
            #expect(mock.transactionLog.writes.map(\.outcome) == [.committed, .committed])
        }
    }
    // snippet:end batch-job-test
}
