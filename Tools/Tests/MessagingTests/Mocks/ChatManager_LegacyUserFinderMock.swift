import Messaging
import TransactionKit
import TransactionKitTesting

/// `ChatManager.Mocks.LegacyUserFinder`: a mock of `ChatManager_LegacyUserFinderShim`, one `MockMethod` per method.
final class ChatManager_LegacyUserFinderMock: ChatManager_LegacyUserFinderShim, Sendable {
    let user = MockMethod<Int64, User?>()

    func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
        try user.call(id, tx, in: self)
    }
}
