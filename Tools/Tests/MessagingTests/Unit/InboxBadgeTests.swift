import Dispatch
import Foundation
import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Unit tests: `InboxBadge` reacting to commits on `MockDB`. The key-value
/// store reports its own changes; the `message` table's changes are declared
/// with `tx.declareChange(table:)`, the one line the message finder's mock
/// would add (the generated mocks' stubs do not receive the transaction, so
/// the tests declare it in the write that stands for the insert).
@Suite("Unit: InboxBadge on MockDB")
struct InboxBadgeTests {
    let lunch = Conversation(id: 1, title: "Lunch", createdAt: Date(timeIntervalSince1970: 0))
    let queue = DispatchQueue(label: "InboxBadgeTests")

    /// Messages from others in conversation 1 after message 0, read by the
    /// count stub: what the database would hold.
    let arrived = Locked<Int>(0)
    let reported = Locked<[Int]>([])
    let db = MockDB()
    let conversations = ConversationFinderMock()
    let messages = InboxManager.Mocks.LegacyMessageFinder()

    init() {
        conversations.conversations.returns([lunch])
        conversations.memberIDs.returns([5, 9])
        let arrived = arrived
        messages.countMessages.stub { _, after, _ in arrived.value - Int(after ?? 0) }
        messages.latestMessage.stub { _ in
            let id = Int64(arrived.value)
            return Message(id: id, conversationID: 1, senderID: 9, body: "hi", sentAt: Date(timeIntervalSince1970: 0))
        }
    }

    var inbox: InboxManager {
        InboxManager(db: db, conversations: conversations, messages: messages)
    }

    func makeBadge() throws -> InboxBadge {
        let reported = reported
        return try InboxBadge(inbox: inbox, userID: 5, queue: queue) { count in reported.withValue { $0.append(count) } }
    }

    /// A committed insert into `message`, as the finder mock would declare it.
    func commitMessages(_ count: Int) throws {
        arrived.withValue { $0 += count }
        try db.write { tx in tx.declareChange(table: "message") }
        queue.sync {}
    }

    // snippet:begin inbox-badge-unit-test
    @Test func theBadgeCountsAgainAfterEachCommitThatAddsMessages() throws {
        arrived.withValue { $0 = 1 }
        let badge = try makeBadge()
        #expect(badge.count == 1)

        try commitMessages(2)
        try commitMessages(1)

        #expect(reported.value == [3, 4])
        #expect(badge.count == 4)
    }
    // snippet:end inbox-badge-unit-test

    @Test func aRollbackOrAnUnrelatedTableIsNotCounted() throws {
        let badge = try makeBadge()

        arrived.withValue { $0 = 5 }   // what the count would now read, were it asked
        _ = try db.writeOrRollBack { tx -> DBWriteOutcome<Void> in
            tx.declareChange(table: "message")
            return .rollBack(())
        }
        #expect(throws: CancellationError.self) {
            try db.write { tx in
                tx.declareChange(table: "message")
                throw CancellationError()
            }
        }
        try db.write { tx in tx.declareChange(table: "membership") }
        queue.sync {}

        #expect(reported.value == [])
        #expect(badge.count == 0)
        #expect(messages.countMessages.callCount == 1)   // the first count only
    }

    @Test func theCursorAndTheSettingsInTheStoreAreObservedWithoutDeclaringAnything() throws {
        let badge = try makeBadge()
        try commitMessages(3)

        // Muting writes the settings collection: the badge counts again and
        // leaves the muted conversation out.
        let chat = ChatManager(
            db: db, conversations: conversations, users: ChatManager.Mocks.LegacyUserFinder(),
            messages: ChatManager.Mocks.LegacyMessageFinder(), sanitizer: ChatManager.Mocks.LegacyMessageSanitizer(),
            notifier: SilentNotifier())
        #expect(try chat.setMuted(true, conversationID: 1, userID: 5))
        queue.sync {}
        #expect(try chat.setMuted(false, conversationID: 1, userID: 5))
        queue.sync {}

        // Opening the inbox moves the cursor: back to zero.
        #expect(try inbox.markInboxSeen(userID: 5))
        queue.sync {}

        #expect(reported.value == [3, 0, 3, 0])
        #expect(badge.count == 0)
        #expect(db.keyValues(in: InboxManager.cursorCollection) == ["5": 3])
    }

    @Test func aCancelledBadgeStopsCounting() throws {
        let badge = try makeBadge()
        badge.cancel()

        try commitMessages(2)

        #expect(reported.value == [])
        #expect(badge.count == 0)
    }
}
