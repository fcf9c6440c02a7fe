import TransactionKit

/// Business logic for a user's inbox, written once against
/// ``/TransactionKit/AsyncDB``: the read side of the example's async slice.
///
/// ```swift
/// let inbox = AsyncInboxManager(
///     db: db, conversations: PostgresConversationFinder(), messages: PostgresMessageFinder())
/// for entry in try await inbox.inbox(for: bob.id) {
///     print(entry.conversation.title, entry.unreadCount)
/// }
/// ```
///
/// It computes what ``InboxManager`` computes (unread counts from the
/// per-conversation read marks, one-line previews), without the inbox
/// cursor.
///
/// **Transaction semantics:** ``inbox(for:)`` reads one consistent snapshot,
/// whatever commits while it is suspended;
/// ``markRead(conversationID:userID:)`` is one write transaction, which
/// writes nothing when there is nothing new to mark.
///
/// **Tasks:** methods suspend the calling task while the transaction runs.
///
/// - Warning: Do not call these methods from inside a transaction of the
///   same database, in the same task (nested transaction): the process stops.
public struct AsyncInboxManager: Sendable {
    /// Why a request was refused: the reasons of ``InboxManager``.
    public typealias Failure = InboxManager.Failure

    let db: any AsyncDB
    let conversations: any AsyncConversationFinding
    let messages: any AsyncMessageFinding

    /// Creates the manager.
    ///
    /// - Parameters:
    ///   - db: Where transactions come from: `PostgresDB`, `SQLiteDB` or `MockDB`.
    ///   - conversations: ``PostgresConversationFinder`` in production, a mock in unit tests.
    ///   - messages: ``PostgresMessageFinder`` in production, a mock in unit tests.
    public init(db: any AsyncDB, conversations: any AsyncConversationFinding, messages: any AsyncMessageFinding) {
        self.db = db
        self.conversations = conversations
        self.messages = messages
    }

    /// The user's conversations, most recently active first, with the number
    /// of messages from others they have not read and a one-line preview.
    ///
    /// - Throws: `DBError`.
    public func inbox(for userID: Int64) async throws -> [InboxEntry] {
        try await db.read { tx in
            var entries: [InboxEntry] = []
            for conversation in try await conversations.conversations(memberID: userID, tx) {
                let lastRead = try await conversations.lastReadMessageID(
                    conversationID: conversation.id, userID: userID, tx)
                let unread = try await messages.countMessages(
                    conversationID: conversation.id, after: lastRead, notSentBy: userID, tx)
                let latest = try await messages.latestMessage(conversationID: conversation.id, tx)
                entries.append(InboxEntry(
                    conversation: conversation, unreadCount: unread,
                    preview: latest.map { InboxManager.preview(of: $0.body) }))
            }
            return entries
        }
    }

    /// Marks every message of the conversation as read by `userID`.
    ///
    /// - Returns: `false` when there was nothing new to mark (nothing written).
    /// - Throws: ``InboxManager/Failure/notAMember(userID:conversationID:)`` or `DBError`.
    public func markRead(conversationID: Int64, userID: Int64) async throws -> Bool {
        try await db.write { tx in
            guard try await conversations.memberIDs(conversationID: conversationID, tx).contains(userID) else {
                throw Failure.notAMember(userID: userID, conversationID: conversationID)
            }
            guard let latest = try await messages.latestMessage(conversationID: conversationID, tx) else {
                return false
            }
            let lastRead = try await conversations.lastReadMessageID(
                conversationID: conversationID, userID: userID, tx)
            if let lastRead, lastRead >= latest.id { return false }
            try await conversations.setLastReadMessageID(
                latest.id, conversationID: conversationID, userID: userID, tx)
            return true
        }
    }
}
