import Messaging
import TransactionKit
import TransactionKitTesting

/// `AccountManager.Mocks.LegacyUserFinder`: answers from stubs, records
/// calls, and fails the test on a call nobody stubbed.
///
/// Not thread-safe: one test drives it from one thread at a time.
// snippet:begin account-user-mock
final class AccountManager_LegacyUserFinderMock: AccountManager_LegacyUserFinderShim, @unchecked Sendable {
    var userByIDStub: ((Int64) -> User?)?
    var userByNameStub: ((String) -> User?)?
    var insertUserStub: ((String) -> User)?
    var setBlockedStub: ((Bool, Int64) -> Void)?

    private(set) var calls: [String] = []

    func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
        tx.preconditionActive()
        calls.append("user(id: \(id))")
        guard let userByIDStub else { throw unimplemented("AccountManager.Mocks.LegacyUserFinder.user(id:)") }
        return userByIDStub(id)
    }

    func user(named name: String, _ tx: DBReadTransaction) throws -> User? {
        tx.preconditionActive()
        calls.append("user(named: \(name))")
        guard let userByNameStub else { throw unimplemented("AccountManager.Mocks.LegacyUserFinder.user(named:)") }
        return userByNameStub(name)
    }

    func insertUser(named name: String, _ tx: DBWriteTransaction) throws -> User {
        tx.preconditionActive()
        calls.append("insertUser(named: \(name))")
        guard let insertUserStub else { throw unimplemented("AccountManager.Mocks.LegacyUserFinder.insertUser(named:)") }
        return insertUserStub(name)
    }

    func setBlocked(_ isBlocked: Bool, userID: Int64, _ tx: DBWriteTransaction) throws {
        tx.preconditionActive()
        calls.append("setBlocked(\(isBlocked), userID: \(userID))")
        guard let setBlockedStub else { throw unimplemented("AccountManager.Mocks.LegacyUserFinder.setBlocked(_:userID:)") }
        setBlockedStub(isBlocked, userID)
    }
}
// snippet:end account-user-mock
