import TransactionKit
import TransactionKitSQLite

/// Forwards ``ChatManager_LegacyMessageSanitizerShim`` to
/// ``LegacyMessageSanitizer`` through `SQLiteDB.shimOnlyBridge(_:)`
/// (Shortcut Way).
///
/// **Thread:** the thread that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse,
///   even though the sanitizer never runs SQL: unit tests pass
///   `ChatManager.Mocks.LegacyMessageSanitizer` instead.
// snippet:begin chat-sanitizer-wrapper
public struct ChatManager_LegacyMessageSanitizerWrapper: ChatManager_LegacyMessageSanitizerShim {
    private let sanitizer = LegacyMessageSanitizer()

    /// Creates the wrapper around a new legacy sanitizer.
    public init() {}

    /// Forwards to `LegacyMessageSanitizer.sanitize(_:transaction:)`.
    public func sanitize(_ body: String, _ tx: DBReadTransaction) throws -> String {
        sanitizer.sanitize(body, transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
    }
}
// snippet:end chat-sanitizer-wrapper
