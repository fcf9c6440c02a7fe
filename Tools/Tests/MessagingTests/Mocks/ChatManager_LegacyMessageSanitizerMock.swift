import Messaging
import TransactionKit
import TransactionKitTesting

/// `ChatManager.Mocks.LegacyMessageSanitizer`: returns what its stub says,
/// records the bodies it saw, fails the test on an unstubbed call.
/// Not thread-safe.
final class ChatManager_LegacyMessageSanitizerMock: ChatManager_LegacyMessageSanitizerShim, @unchecked Sendable {
    var sanitizeStub: ((String) -> String)?
    private(set) var sanitizedBodies: [String] = []

    func sanitize(_ body: String, _ tx: DBReadTransaction) throws -> String {
        tx.preconditionActive()
        sanitizedBodies.append(body)
        guard let sanitizeStub else { throw unimplemented("ChatManager.Mocks.LegacyMessageSanitizer.sanitize") }
        return sanitizeStub(body)
    }
}
