import Messaging
import TransactionKit
import TransactionKitTesting

/// `ChatManager.Mocks.LegacyMessageSanitizer`: a mock of `ChatManager_LegacyMessageSanitizerShim`, one `MockMethod` per method.
final class ChatManager_LegacyMessageSanitizerMock: ChatManager_LegacyMessageSanitizerShim, Sendable {
    let sanitize = MockMethod<String, String>()

    func sanitize(_ body: String, _ tx: DBReadTransaction) throws -> String {
        try sanitize.call(body, tx, in: self)
    }
}
