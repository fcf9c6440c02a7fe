import TransactionKit
import TransactionKitSQLite

/// Forwards ``ChatManager_LegacyUserFinderShim`` to ``LegacyUserFinder``
/// through `SQLiteDB.shimOnlyBridge(_:)` (Shortcut Way).
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse:
///   unit tests pass `ChatManager.Mocks.LegacyUserFinder` instead.
public struct ChatManager_LegacyUserFinderWrapper: ChatManager_LegacyUserFinderShim {
    private let finder = LegacyUserFinder()

    /// Creates the wrapper around a new legacy finder.
    public init() {}

    /// Forwards to `LegacyUserFinder.user(id:transaction:)`.
    public func user(id: Int64, _ tx: DBReadTransaction) throws -> User? {
        try finder.user(id: id, transaction: LegacyTransaction(SQLiteDB.shimOnlyBridge(tx)))
    }
}
