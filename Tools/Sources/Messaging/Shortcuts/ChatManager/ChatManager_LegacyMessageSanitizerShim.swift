import TransactionKit

/// The method of ``LegacyMessageSanitizer`` that ``ChatManager`` calls
/// (Shortcut Way). The legacy class never touches the database, but its
/// method demands a legacy transaction, so reaching it needs the bridge, and
/// unit tests need a mock.
///
/// **Transaction semantics:** runs inside the transaction given; writes nothing.
public protocol ChatManager_LegacyMessageSanitizerShim: Sendable {
    /// The cleaned-up text; empty when nothing is left.
    func sanitize(_ body: String, _ tx: DBReadTransaction) throws -> String
}
