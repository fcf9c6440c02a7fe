import Messaging
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting

// snippet:begin fresh-database-trait
/// Integration tests that get their database from the Swift Testing trait:
/// each test (and each case of a parameterized test) runs on its own copy of
/// the seeded template, so the tests below never see each other's writes,
/// whatever order or parallelism they run in.
@Suite("Integration: inbox on fresh template copies", .freshDatabase(TestDatabases.withAliceAndBob))
struct InboxTemplateTraitTests {
    @Test func theSeedUsersAreThereAndNothingElse() throws {
        let services = MessagingServices.live(db: try FreshDatabase.current, notifier: SilentNotifier())
        #expect(try services.accounts.user(named: "alice")?.name == "Alice")
        #expect(try services.accounts.user(named: "bob")?.name == "Bob")
        #expect(try services.accounts.user(named: "carol") == nil)
    }

    @Test(arguments: ["Carol", "Dave"])
    func aRegistrationStaysInItsOwnCopy(name: String) throws {
        let services = MessagingServices.live(db: try FreshDatabase.current, notifier: SilentNotifier())
        _ = try services.accounts.register(name: name)
        let other = name == "Carol" ? "Dave" : "Carol"
        #expect(try services.accounts.user(named: other) == nil)
    }
}
// snippet:end fresh-database-trait
