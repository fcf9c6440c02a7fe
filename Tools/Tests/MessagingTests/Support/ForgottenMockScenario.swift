import Foundation
import Messaging
import TransactionKit
import TransactionKitTesting

/// Every dependency mocked but the sanitizer, which never runs SQL: its
/// wrapper still has to bridge, so it still needs a mock.
enum ForgottenMockScenario {
    static func sendWithTheRealSanitizer() throws {
        let conversations = ConversationFinderMock()
        conversations.conversation.returns(Conversation(id: 1, title: "Lunch", createdAt: .distantPast))
        conversations.memberIDs.returns([1, 2])
        let users = ChatManager.Mocks.LegacyUserFinder()
        users.user.stub { id in [User(id: 1, name: "Alice"), User(id: 2, name: "Bob")].first { $0.id == id } }
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
