import Messaging
import TransactionKit
import TransactionKitTesting

/// `AccountManager.Mocks.LegacyUserFinder`: a mock of `AccountManager_LegacyUserFinderShim`, one `MockMethod` per method.
// snippet:begin account-user-mock
final class AccountManager_LegacyUserFinderMock: AccountManager_LegacyUserFinderShim, Sendable {
    let userByID = MockMethod<Int64, User?>()
    let userByName = MockMethod<String, User?>()
    let insertUser = MockMethod<String, User>()
    let setBlocked = MockMethod<(isBlocked: Bool, userID: Int64), Void>()

    func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
        try userByID.call(id, tx, in: self)
    }

    func user(named name: String, _ tx: DBReadTransaction) throws -> User? {
        try userByName.call(name, tx, in: self)
    }

    func insertUser(named name: String, _ tx: DBWriteTransaction) throws -> User {
        try insertUser.call(name, tx, in: self)
    }

    func setBlocked(_ isBlocked: Bool, userID: Int64, _ tx: DBWriteTransaction) throws {
        try setBlocked.call((isBlocked, userID), tx, in: self)
    }
}
// snippet:end account-user-mock
