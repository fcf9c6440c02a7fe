import Messaging
import TransactionKit
import TransactionKitTesting

/// `ChatManager.Mocks.LegacyUserFinder`: answers from a stub, records calls,
/// fails the test on an unstubbed call. Not thread-safe.
final class ChatManager_LegacyUserFinderMock: ChatManager_LegacyUserFinderShim, @unchecked Sendable {
    var userStub: ((Int64) -> User?)?
    private(set) var requestedIDs: [Int64] = []

    func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
        tx.preconditionActive()
        requestedIDs.append(id)
        guard let userStub else { throw unimplemented("ChatManager.Mocks.LegacyUserFinder.user(id:)") }
        return userStub(id)
    }

    /// Stubs `user(id:)` with a fixed set of users.
    func stubUsers(_ users: [User]) {
        userStub = { id in users.first { $0.id == id } }
    }
}
