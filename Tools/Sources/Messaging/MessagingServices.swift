import TransactionKit

/// The production wiring of the example: every manager, given its real
/// finders and wrappers.
///
/// ```swift
/// let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
/// let services = MessagingServices.live(db: db, notifier: notifier)
/// let alice = try services.accounts.register(name: "Alice")
/// ```
///
/// **Transaction semantics:** none of its own; each manager method is one
/// transaction on `db`.
///
/// - Warning: The live wiring needs an `SQLiteDB`. Given a `MockDB`, the
///   first finder that reaches `SQLiteDB.shimOnlyBridge(_:)` stops the
///   process: unit tests build each manager with mocks instead.
public struct MessagingServices: Sendable {
    /// Registering and blocking users.
    public let accounts: AccountManager
    /// Starting conversations and sending messages.
    public let chat: ChatManager
    /// Inbox, unread counts and read marks.
    public let inbox: InboxManager

    /// Wires the managers to the production finders and wrappers.
    ///
    /// - Parameters:
    ///   - db: The database, normally an `SQLiteDB` migrated with ``MessagingSchema/migrator``.
    ///   - notifier: Told about each committed message.
    // snippet:begin live-wiring
    public static func live(db: any DB, notifier: any MessageNotifying) -> MessagingServices {
        let conversations = ConversationFinder()
        return MessagingServices(
            accounts: AccountManager(db: db, users: AccountManager.Wrappers.LegacyUserFinder()),
            chat: ChatManager(
                db: db,
                conversations: conversations,
                users: ChatManager.Wrappers.LegacyUserFinder(),
                messages: ChatManager.Wrappers.LegacyMessageFinder(),
                sanitizer: ChatManager.Wrappers.LegacyMessageSanitizer(),
                notifier: notifier),
            inbox: InboxManager(
                db: db, conversations: conversations, messages: InboxManager.Wrappers.LegacyMessageFinder()))
    }
    // snippet:end live-wiring
}
