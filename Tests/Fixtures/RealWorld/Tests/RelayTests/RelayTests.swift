import Relay
import Testing
import TransactionKitSQLite

/// The relay app's managers on a real database: its legacy layer runs its
/// SQL on GRDB's `Database`.
@Suite struct RelayTests {
    @Test func aMessageIsStoredPreparedAndSent() throws {
        let db = try SQLiteDB.inMemory(migrator: RelaySchema.migrator)
        let conversations = ConversationManager(db: db)
        let opened = try conversations.open(threadId: "t")
        #expect(!opened.0)
        #expect(opened.1 == 0)
        let prepared = try #require(try MessageSendManager(db: db).enqueue("hi", threadId: "t"))
        #expect(prepared.body == "hi")
        try MessageSendManager(db: db).didSend(prepared, at: 7)
        #expect(try conversations.open(threadId: "t").1 == 1)
        try conversations.markRead(threadId: "t", upTo: prepared.interactionId)
        #expect(try conversations.open(threadId: "t").1 == 0)
    }

    @Test func settingsProfilesAttachmentsAndRooms() throws {
        let db = try SQLiteDB.inMemory(migrator: RelaySchema.migrator)
        let settings = SettingsManager(db: db)
        #expect(try settings.replace("unknownName", with: "Someone") == nil)
        let profiles = ProfileManager(db: db)
        #expect(try profiles.name(for: "p") == "Someone")
        try profiles.rename("p", to: "Pat")
        #expect(try profiles.name(for: "p") == "Pat")
        #expect(try AttachmentManager(db: db).download(["b", "a", "a"]) == ["a", "b"])
        let poll = try CommunityPoller(db: db).poll(server: "s", token: "r", at: 1)
        #expect(poll.0.isEmpty)
        #expect(!poll.1)
    }
}
