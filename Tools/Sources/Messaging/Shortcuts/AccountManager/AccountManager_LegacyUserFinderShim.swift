import TransactionKit

/// The methods of ``LegacyUserFinder`` that ``AccountManager`` calls, and
/// only those, taking TransactionKit transactions (Shortcut Way).
///
/// Call sites read `AccountManager.Shims.LegacyUserFinder`. Production
/// passes ``AccountManager_LegacyUserFinderWrapper``; unit tests pass a mock.
///
/// **Transaction semantics:** each method runs inside the transaction given.
///
/// - Warning: Add a method here only when `AccountManager` starts calling it.
// snippet:begin account-user-shim
public protocol AccountManager_LegacyUserFinderShim: Sendable {
    /// The user with this id, or `nil`.
    func user(id: Int64, _ tx: DBReadTransaction) throws -> User?
    /// The user with this name (ignoring case), or `nil`.
    func user(named name: String, _ tx: DBReadTransaction) throws -> User?
    /// Inserts a user and returns it.
    func insertUser(named name: String, _ tx: DBWriteTransaction) throws -> User
    /// Blocks or unblocks a user.
    func setBlocked(_ isBlocked: Bool, userID: Int64, _ tx: DBWriteTransaction) throws
}
// snippet:end account-user-shim
