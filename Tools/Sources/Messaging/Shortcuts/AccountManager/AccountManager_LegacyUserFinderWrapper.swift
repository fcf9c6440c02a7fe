import TransactionKit
import TransactionKitSQLite

/// Forwards ``AccountManager_LegacyUserFinderShim`` to the untouched
/// ``LegacyUserFinder``, bridging each transaction with
/// `SQLiteDB.shimOnlyBridge(_:)` (Shortcut Way).
///
/// **Transaction semantics:** the legacy finder runs inside the very
/// transaction the manager opened.
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse:
///   unit tests pass `AccountManager.Mocks.LegacyUserFinder` instead.
// snippet:begin account-user-wrapper
public struct AccountManager_LegacyUserFinderWrapper: AccountManager_LegacyUserFinderShim {
    private let finder = LegacyUserFinder()

    /// Creates the wrapper around a new legacy finder.
    public init() {}

    /// Forwards to `LegacyUserFinder.user(id:transaction:)`.
    public func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
        try finder.user(id: id, transaction: LegacyTransaction(SQLiteDB.shimOnlyBridge(tx)))
    }

    /// Forwards to `LegacyUserFinder.user(named:transaction:)`.
    public func user(named name: String, _ tx: DBReadTransaction) throws -> User? {
        try finder.user(named: name, transaction: LegacyTransaction(SQLiteDB.shimOnlyBridge(tx)))
    }

    /// Forwards to `LegacyUserFinder.insertUser(named:transaction:)`.
    public func insertUser(named name: String, _ tx: DBWriteTransaction) throws -> User {
        try finder.insertUser(named: name, transaction: LegacyTransaction(SQLiteDB.shimOnlyBridge(tx)))
    }

    /// Forwards to `LegacyUserFinder.setBlocked(_:userID:transaction:)`.
    public func setBlocked(_ isBlocked: Bool, userID: Int64, _ tx: DBWriteTransaction) throws {
        try finder.setBlocked(isBlocked, userID: userID, transaction: LegacyTransaction(SQLiteDB.shimOnlyBridge(tx)))
    }
}
// snippet:end account-user-wrapper
