import Dispatch
import Testing
import TransactionKit
import TransactionKitTesting

// The code that Guides/Testing.md shows in "Settings and commits without a
// database": a manager that keeps settings in a KeyValueStore and reacts
// to commits, tested on MockDB with no mock for the store.

// snippet:begin settings-manager
/// Per-user notification settings, kept in the database's key-value store.
struct NotificationSettings {
    let db: any DB
    private let store = KeyValueStore(collection: "notificationSettings")

    func isMuted(_ user: Int) throws -> Bool {
        try db.read { tx in try store.getBool("muted.\(user)", defaultValue: false, transaction: tx) }
    }

    /// Mutes `user`, unless the whole batch is invalid: then nothing is kept.
    func mute(_ users: [Int]) throws {
        try db.write { tx in
            for user in users {
                guard user > 0 else { throw SettingsError.invalidUser(user) }
                try store.setBool(true, key: "muted.\(user)", transaction: tx)
            }
        }
    }
}
// snippet:end settings-manager

enum SettingsError: Error, Equatable {
    case invalidUser(Int)
}

@Suite("Guide: settings and commits on MockDB")
struct GuideKeyValueStoreTests {
    // snippet:begin settings-test
    @Test func mutingKeepsTheSettingAndAFailedBatchKeepsNothing() throws {
        let db = MockDB(keyValues: ["notificationSettings": ["muted.1": true]])
        let settings = NotificationSettings(db: db)

        try settings.mute([2])
        #expect(throws: SettingsError.invalidUser(-1)) { try settings.mute([3, -1]) }

        #expect(try settings.isMuted(1))
        #expect(db.keyValues(in: "notificationSettings") == ["muted.1": true, "muted.2": true])
        #expect(db.statistics == MockDB.Statistics(reads: 1, writes: 2, commits: 1, rollbacks: 1))
    }
    // snippet:end settings-test

    // snippet:begin observation-test
    @Test func theInboxHearsAboutCommittedMessagesOnly() async throws {
        let db = MockDB()
        let changes = db.commits(tables: ["message"])

        try await db.write { tx in tx.declareChange(table: "message") }   // what a finder mock does
        _ = try await db.writeOrRollBack { tx -> DBWriteOutcome<Void> in
            tx.declareChange(table: "message")
            return .rollBack(())
        }

        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == DBChanges(tables: ["message"]))
        #expect(db.statistics == MockDB.Statistics(writes: 2, commits: 1, rollbacks: 1))
    }
    // snippet:end observation-test
}
