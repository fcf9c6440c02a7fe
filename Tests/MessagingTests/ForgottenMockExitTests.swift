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
        #expect(message.contains("TransactionKit misuse at Messaging/AccountManager_LegacyUserFinderWrapper.swift:"))
        #expect(message.contains("SQLiteDB.shimOnlyBridge received a transaction that came from a MockDB"))
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

/// A notifier that ignores everything (exit-test bodies capture nothing).
struct SilentNotifier: MessageNotifying {
    func messageWasSent(_ message: Message, to recipientIDs: [Int64]) {}
}

/// Every dependency mocked but the sanitizer, which never runs SQL: its
/// wrapper still has to bridge, so it still needs a mock.
enum ForgottenMockScenario {
    static func sendWithTheRealSanitizer() throws {
        let conversations = ConversationFinderMock()
        conversations.stubConversation(
            Conversation(id: 1, title: "Lunch", createdAt: .distantPast), memberIDs: [1, 2])
        let users = ChatManager.Mocks.LegacyUserFinder()
        users.stubUsers([User(id: 1, name: "Alice"), User(id: 2, name: "Bob")])
        let chat = ChatManager(
            db: MockDB(),
            conversations: conversations,
            users: users,
            messages: ChatManager.Mocks.LegacyMessageFinder(),
            sanitizer: ChatManager.Wrappers.LegacyMessageSanitizer(),  // forgotten mock
            notifier: SilentNotifier())
        _ = try chat.send("Hi", from: 1, in: 1)
    }
}
