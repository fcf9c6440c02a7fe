import TransactionKit

/// Business logic for a user's inbox: unread counts, previews, read marks.
///
/// ```swift
/// let inbox = InboxManager(
///     db: db,
///     conversations: ConversationFinder(),
///     messages: InboxManager.Wrappers.LegacyMessageFinder())
/// for entry in try inbox.inbox(for: bob.id) {
///     print(entry.conversation.title, entry.unreadCount)
/// }
/// ```
///
/// It depends on `TransactionKit` only: ``ConversationFinding`` (Good Way)
/// and ``InboxManager/Shims/LegacyMessageFinder`` (Shortcut Way).
///
/// **Transaction semantics:** ``inbox(for:)`` reads one consistent snapshot;
/// ``markRead(conversationID:userID:)`` is one write transaction that writes
/// nothing when there is nothing new to mark.
///
/// **Thread:** any; methods block the caller while the transaction runs.
///
/// - Warning: Do not call these methods from inside a transaction of the
///   same `DB` (nested transaction): the process stops.
public struct InboxManager: Sendable {
    /// Why a request was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// The user is not a member of the conversation.
        case notAMember(userID: Int64, conversationID: Int64)
    }

    /// The longest preview, in characters, including the ellipsis.
    public static let previewLength = 40

    let db: any DB
    let conversations: any ConversationFinding
    let messages: any Shims.LegacyMessageFinder

    /// Creates the manager.
    ///
    /// - Parameters:
    ///   - db: Where transactions come from: `SQLiteDB` or `MockDB`.
    ///   - conversations: ``ConversationFinder`` in production, a mock in unit tests.
    ///   - messages: ``InboxManager/Wrappers/LegacyMessageFinder`` in production, a mock in unit tests.
    public init(db: any DB, conversations: any ConversationFinding, messages: any Shims.LegacyMessageFinder) {
        self.db = db
        self.conversations = conversations
        self.messages = messages
    }

    // snippet:begin inbox
    /// The user's conversations, most recently active first, with the number
    /// of messages from others they have not read and a one-line preview.
    ///
    /// - Throws: `DBError`.
    public func inbox(for userID: Int64) throws -> [InboxEntry] {
        try db.read { tx in
            try conversations.conversations(memberID: userID, tx).map { conversation in
                let lastRead = try conversations.lastReadMessageID(
                    conversationID: conversation.id, userID: userID, tx)
                let unread = try messages.countMessages(
                    conversationID: conversation.id, after: lastRead, notSentBy: userID, tx)
                let latest = try messages.latestMessage(conversationID: conversation.id, tx)
                return InboxEntry(
                    conversation: conversation, unreadCount: unread, preview: latest.map { Self.preview(of: $0.body) })
            }
        }
    }
    // snippet:end inbox

    /// Marks every message of the conversation as read by `userID`.
    ///
    /// - Returns: `false` when there was nothing new to mark (nothing written).
    /// - Throws: ``Failure/notAMember(userID:conversationID:)`` or `DBError`.
    public func markRead(conversationID: Int64, userID: Int64) throws -> Bool {
        try db.write { tx in
            guard try conversations.memberIDs(conversationID: conversationID, tx).contains(userID) else {
                throw Failure.notAMember(userID: userID, conversationID: conversationID)
            }
            guard let latest = try messages.latestMessage(conversationID: conversationID, tx) else { return false }
            let lastRead = try conversations.lastReadMessageID(conversationID: conversationID, userID: userID, tx)
            if let lastRead, lastRead >= latest.id { return false }
            try conversations.setLastReadMessageID(latest.id, conversationID: conversationID, userID: userID, tx)
            return true
        }
    }

    /// The first line of `body`, cut to ``previewLength`` characters with an ellipsis.
    static func preview(of body: String) -> String {
        let firstLine = body.prefix { $0 != "\n" }
        let isCut = firstLine.count > previewLength || firstLine.endIndex != body.endIndex
        guard isCut else { return String(firstLine) }
        return String(firstLine.prefix(previewLength - 1)) + "…"
    }
}
