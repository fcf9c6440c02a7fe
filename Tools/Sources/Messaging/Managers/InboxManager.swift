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
/// Besides the per-conversation read marks (a column of the `membership`
/// table), each user has an inbox cursor: the id of the latest message they
/// saw when they last opened their inbox, kept in the database's
/// `KeyValueStore` (collection ``cursorCollection``, key: the user's id, an
/// integer). ``newMessageCount(for:)`` counts what arrived since, for an
/// app-icon badge; ``InboxBadge`` keeps that count up to date after each
/// commit.
///
/// **Transaction semantics:** ``inbox(for:)`` and ``newMessageCount(for:)``
/// each read one consistent snapshot; ``markRead(conversationID:userID:)``
/// and ``markInboxSeen(userID:)`` are one write transaction each, which
/// writes nothing when there is nothing new to mark.
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

    /// The key-value collection of the inbox cursors: one integer per user
    /// (the key is the user's id), the id of the latest message they saw in
    /// their inbox.
    public static let cursorCollection = "inboxLastSeen"

    /// The inbox cursors.
    let cursors = KeyValueStore(collection: InboxManager.cursorCollection)
    /// Muted conversations count for no badge.
    let settings = NotificationSettings()

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

    /// How many messages from others arrived since `userID` last opened
    /// their inbox (``markInboxSeen(userID:)``), leaving out the
    /// conversations they muted: the number on an app-icon badge.
    ///
    /// - Throws: `KeyValueStoreError` when a stored cursor or setting has
    ///   the wrong type, or `DBError`.
    public func newMessageCount(for userID: Int64) throws -> Int {
        try db.read { tx in try countNewMessages(for: userID, tx) }
    }

    // snippet:begin inbox-live-count
    /// ``newMessageCount(for:)`` as a live value: the count now, then again
    /// after each commit that changed what it read (messages, memberships,
    /// the inbox cursors, the mutes), each distinct count once.
    ///
    /// ```swift
    /// for try await count in inbox.newMessageCounts(for: bob.id) {
    ///     app.setBadge(count)
    /// }
    /// ```
    public func newMessageCounts(for userID: Int64) -> DBValueObservation<Int> {
        db.observe { tx in try countNewMessages(for: userID, tx) }
    }
    // snippet:end inbox-live-count

    private func countNewMessages(for userID: Int64, _ tx: DBReadTransaction) throws -> Int {
        let lastSeen = try cursors.getInt(String(userID), transaction: tx).map(Int64.init)
        var count = 0
        for conversation in try conversations.conversations(memberID: userID, tx)
        where try !settings.isMuted(conversationID: conversation.id, userID: userID, tx) {
            count += try messages.countMessages(
                conversationID: conversation.id, after: lastSeen, notSentBy: userID, tx)
        }
        return count
    }

    /// Moves `userID`'s inbox cursor to the latest message of their
    /// conversations: what a client calls when the inbox is shown.
    ///
    /// - Returns: `false` when the cursor was already there (nothing written).
    /// - Throws: `KeyValueStoreError` when the stored cursor is not an
    ///   integer, or `DBError`.
    public func markInboxSeen(userID: Int64) throws -> Bool {
        try db.write { tx in try moveInboxCursor(userID: userID, tx) }
    }

    /// The id of the latest message `userID` saw when they last opened
    /// their inbox, or `nil` if they never did.
    ///
    /// - Throws: `KeyValueStoreError` when the stored cursor is not an
    ///   integer, or `DBError`.
    public func lastSeenMessageID(userID: Int64) throws -> Int64? {
        try db.read { tx in try cursors.getInt(String(userID), transaction: tx).map(Int64.init) }
    }

    /// The first line of `body`, cut to ``previewLength`` characters with an ellipsis.
    static func preview(of body: String) -> String {
        let firstLine = body.prefix { $0 != "\n" }
        let isCut = firstLine.count > previewLength || firstLine.endIndex != body.endIndex
        guard isCut else { return String(firstLine) }
        return String(firstLine.prefix(previewLength - 1)) + "…"
    }
}
