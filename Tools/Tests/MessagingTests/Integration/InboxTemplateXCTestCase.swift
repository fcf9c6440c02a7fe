import Messaging
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting
import XCTest

// snippet:begin fresh-database-xctest
/// The same fresh databases from XCTest: one copy per test, made in `setUp`.
final class InboxTemplateXCTestCase: XCTestCase {
    var services: MessagingServices!

    override func setUpWithError() throws {
        let db = try makeFreshDatabase(from: TestDatabases.withAliceAndBob)
        services = .live(db: db, notifier: SilentNotifier())
    }

    func testANewConversationHasNoUnreadMessageForItsCreator() throws {
        let alice = try XCTUnwrap(services.accounts.user(named: "Alice"))
        let bob = try XCTUnwrap(services.accounts.user(named: "Bob"))
        _ = try services.chat.startConversation(creatorID: alice.id, with: [bob.id])
        XCTAssertEqual(try services.inbox.inbox(for: alice.id).map(\.unreadCount), [0])
    }
}
// snippet:end fresh-database-xctest
