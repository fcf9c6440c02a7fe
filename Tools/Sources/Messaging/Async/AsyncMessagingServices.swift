import Logging
import TransactionKit
import TransactionKitPostgres

/// The production wiring of the example's async slice: its managers, given
/// the PostgreSQL finders.
///
/// ```swift
/// let db = try await PostgresDB.open(PostgresDB.Configuration(url: url))
/// try await MessagingPostgresSchema.migrator.migrate(db)
/// let services = AsyncMessagingServices.live(db: db, notifier: notifier)
/// let alice = try await services.chat.register(name: "Alice")
/// ```
///
/// **Transaction semantics:** none of its own; each manager method is one
/// transaction on `db`.
///
/// - Warning: The live wiring needs a `PostgresDB` migrated with
///   ``MessagingPostgresSchema/migrator``. Given a `MockDB`, the first finder
///   that reaches `PostgresDB.shimOnlyBridge(_:)` reports a misuse: unit
///   tests build each manager with mocks instead.
public struct AsyncMessagingServices: Sendable {
    /// Registering users, starting conversations and sending messages.
    public let chat: AsyncChatManager
    /// Inbox, unread counts and read marks.
    public let inbox: AsyncInboxManager

    /// Wires the managers to the PostgreSQL finders.
    ///
    /// - Parameters:
    ///   - db: The database, normally a `PostgresDB`.
    ///   - notifier: Told about each committed message.
    ///   - logger: Where postgres-nio logs the finders' queries.
    // snippet:begin async-live-wiring
    public static func live(
        db: any AsyncDB, notifier: any MessageNotifying, logger: Logger = PostgresDB.defaultLogger
    ) -> AsyncMessagingServices {
        let conversations = PostgresConversationFinder(logger: logger)
        let messages = PostgresMessageFinder(logger: logger)
        return AsyncMessagingServices(
            chat: AsyncChatManager(
                db: db, users: PostgresUserFinder(logger: logger), conversations: conversations,
                messages: messages, notifier: notifier),
            inbox: AsyncInboxManager(db: db, conversations: conversations, messages: messages))
    }
    // snippet:end async-live-wiring

    /// Wires the same managers to the SQLite finders: local development and
    /// integration tests on `SQLiteDB`, production on `PostgresDB`, one set
    /// of managers.
    ///
    /// ```swift
    /// let db = try SQLiteDB(path: path, migrator: MessagingSchema.migrator)
    /// let services = AsyncMessagingServices.sqlite(db: db, notifier: notifier)
    /// ```
    ///
    /// - Parameters:
    ///   - db: The database, an `SQLiteDB` migrated with ``MessagingSchema/migrator``.
    ///   - notifier: Told about each committed message.
    // snippet:begin async-sqlite-wiring
    public static func sqlite(db: any AsyncDB, notifier: any MessageNotifying) -> AsyncMessagingServices {
        let conversations = AsyncSQLiteConversationFinder()
        let messages = AsyncSQLiteMessageFinder()
        return AsyncMessagingServices(
            chat: AsyncChatManager(
                db: db, users: AsyncSQLiteUserFinder(), conversations: conversations,
                messages: messages, notifier: notifier),
            inbox: AsyncInboxManager(db: db, conversations: conversations, messages: messages))
    }
    // snippet:end async-sqlite-wiring
}
