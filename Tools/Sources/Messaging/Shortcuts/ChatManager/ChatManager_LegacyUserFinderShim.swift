import TransactionKit

/// The one method of ``LegacyUserFinder`` that ``ChatManager`` calls,
/// taking a TransactionKit transaction (Shortcut Way).
///
/// Call sites read `ChatManager.Shims.LegacyUserFinder`. It is a different
/// protocol from `AccountManager.Shims.LegacyUserFinder` on purpose: each
/// consumer declares only what it uses, so each mock stays small.
///
/// **Transaction semantics:** runs inside the transaction given.
public protocol ChatManager_LegacyUserFinderShim: Sendable {
    /// The user with this id, or `nil`.
    func user(id: Int64, _ tx: DBReadTransaction) throws -> User?
}
