import Chatter
import Testing
import TransactionKitSQLite

/// The messaging app's managers on a real database: its legacy finders
/// run their SQL.
@Suite struct ChatterTests {
    @Test func aMessageSentInAThreadIsCountedUnreadThenRead() throws {
        let db = try SQLiteDB.inMemory(migrator: ChatSchema.migrator)
        let threads = ThreadManager(db: db)
        let threadId = try threads.createThread(title: "Family", unlessExists: nil)
        #expect(try threads.title(of: threadId) == "Family")
        #expect(try threads.hasThreads())

        let sent = try #require(try MessageSender(db: db).send("hello", in: threadId))
        #expect(sent.1 == 1)
        let badge = UnreadCountManager(db: db)
        #expect(try badge.badge(threadId: threadId).0 == 1)
        #expect(try badge.badge(threadId: threadId).1 == "hello")

        let receipts = ReadReceiptManager(db: db)
        try receipts.markRead(messageId: sent.0, threadId: threadId, by: "+100")
        #expect(try badge.badge(threadId: threadId).0 == 0)
        let counts = try receipts.receiptCounts(messageId: sent.0, batch: [sent.0, "other"])
        #expect(counts.0 == 1)
        #expect(counts.1 == 1)
        #expect(try badge.pendingReceiptCount() == 0)
        #expect(try threads.archive(threadId) == [threadId])
    }

    @Test func contactsAndMutes() throws {
        let db = try SQLiteDB.inMemory(migrator: ChatSchema.migrator)
        let contacts = ContactManager(db: db)
        #expect(try contacts.rename(phone: "+1", to: "Ann") == nil)
        #expect(try contacts.rename(phone: "+1", to: "Anna") == "Ann")
        #expect(try MessageSender(db: db).senderName(phone: "+1") == "Anna")
        try MuteManager(db: db).mute(threadId: "t", until: 42)
    }
}
