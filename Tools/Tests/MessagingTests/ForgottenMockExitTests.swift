import Messaging
import Testing
import TransactionKit
import TransactionKitTesting

/// Forgetting a mock is caught: a manager wired to a real wrapper but given
/// a `MockDB` stops at the bridge, with a message that names the wrapper
/// and says to mock it.
@Suite("A forgotten mock stops the test process", .timeLimit(.minutes(2)))
struct ForgottenMockExitTests {
    // snippet:begin forgotten-mock-exit-test
    @Test func theLiveWiringOnAMockDBStopsAtTheBridge() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let services = MessagingServices.live(db: MockDB(), notifier: SilentNotifier())
            _ = try services.accounts.register(name: "Alice")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Messaging/AccountManager_LegacyUserFinderWrapper.swift:"))
        #expect(message.contains("Fatal error: TransactionKit misuse: SQLiteDB.shimOnlyBridge received a transaction that came from a MockDB"))
        #expect(message.contains("Fix: mock the finder that called the bridge"))
    }
    // snippet:end forgotten-mock-exit-test

    @Test func oneRealWrapperAmongMocksIsEnoughToStop() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try ForgottenMockScenario.sendWithTheRealSanitizer()
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Messaging/ChatManager_LegacyMessageSanitizerWrapper.swift:"))
        #expect(message.contains("mock the finder that called the bridge"))
    }
}
