import Foundation
import TransactionKit

/// Business logic for conversations: starting them and sending messages.
///
/// ```swift
/// let chat = ChatManager(
///     db: db,
///     conversations: ConversationFinder(),
///     users: ChatManager.Wrappers.LegacyUserFinder(),
///     messages: ChatManager.Wrappers.LegacyMessageFinder(),
///     sanitizer: ChatManager.Wrappers.LegacyMessageSanitizer(),
///     notifier: notifier)
/// let message = try chat.send("Lunch?", from: alice.id, in: conversation.id)
/// ```
///
/// It depends on `TransactionKit` only: ``ConversationFinding`` is a
/// Good-Way finder; the legacy user finder, message finder and sanitizer are
/// reached through the Shortcut Way (``ChatManager/Shims``).
///
/// **Transaction semantics:** each method is one write transaction. A batch
/// of messages is all or nothing. The conversation's `lastMessageAt` is
/// updated once per transaction, by a finalization; recipients are notified
/// by a sync completion, after the commit, never for a rolled-back message.
/// Members who muted the conversation (``NotificationSettings``, kept in the
/// database's `KeyValueStore`) are not notified; the setting is read in the
/// same transaction as the message it applies to.
///
/// **Thread:** any; methods block the caller while the transaction runs.
///
/// - Warning: Do not call these methods from inside a transaction of the
///   same `DB` (nested transaction): the process stops.
public struct ChatManager: Sendable {
    /// Why a request was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// No user has this id.
        case unknownUser(Int64)
        /// No conversation has this id.
        case unknownConversation(Int64)
        /// The user is not a member of the conversation.
        case notAMember(userID: Int64, conversationID: Int64)
        /// Blocked users cannot start conversations or send.
        case blocked(Int64)
        /// A conversation needs at least two distinct members.
        case tooFewMembers
        /// Nothing is left once the text is sanitized.
        case emptyMessage
        /// The sanitized text is longer than ``ChatManager/maximumMessageLength``.
        case messageTooLong(Int)
    }

    /// Which members muted which conversation, in the `KeyValueStore`.
    let settings = NotificationSettings()

    /// The longest message accepted, in characters, after sanitizing.
    public static let maximumMessageLength = 2_000

    let db: any DB
    let conversations: any ConversationFinding
    let users: any Shims.LegacyUserFinder
    let messages: any Shims.LegacyMessageFinder
    let sanitizer: any Shims.LegacyMessageSanitizer
    let notifier: any MessageNotifying

    /// Creates the manager.
    ///
    /// - Parameters:
    ///   - db: Where transactions come from: `SQLiteDB` or `MockDB`.
    ///   - conversations: ``ConversationFinder`` in production, a mock in unit tests.
    ///   - users: ``ChatManager/Wrappers/LegacyUserFinder`` in production, a mock in unit tests.
    ///   - messages: ``ChatManager/Wrappers/LegacyMessageFinder`` in production, a mock in unit tests.
    ///   - sanitizer: ``ChatManager/Wrappers/LegacyMessageSanitizer`` in production, a mock in unit tests.
    ///   - notifier: Told about each committed message.
    public init(
        db: any DB,
        conversations: any ConversationFinding,
        users: any Shims.LegacyUserFinder,
        messages: any Shims.LegacyMessageFinder,
        sanitizer: any Shims.LegacyMessageSanitizer,
        notifier: any MessageNotifying
    ) {
        self.db = db
        self.conversations = conversations
        self.users = users
        self.messages = messages
        self.sanitizer = sanitizer
        self.notifier = notifier
    }

    /// Starts a conversation between `creatorID` and `otherIDs`.
    ///
    /// Duplicate ids are ignored. Without a title (or with a blank one) the
    /// title lists the members' names in alphabetical order.
    ///
    /// - Throws: ``Failure/unknownUser(_:)``, ``Failure/blocked(_:)`` (the
    ///   creator), ``Failure/tooFewMembers``, or `DBError`.
    public func startConversation(
        creatorID: Int64, with otherIDs: [Int64], title: String? = nil, at date: Date = Date()
    ) throws -> Conversation {
        try db.write { tx in
            guard let creator = try users.user(id: creatorID, tx) else {
                throw Failure.unknownUser(creatorID)
            }
            guard !creator.isBlocked else { throw Failure.blocked(creatorID) }
            var members = [creator]
            for id in otherIDs where !members.contains(where: { $0.id == id }) {
                guard let member = try users.user(id: id, tx) else { throw Failure.unknownUser(id) }
                members.append(member)
            }
            guard members.count >= 2 else { throw Failure.tooFewMembers }
            let trimmedTitle = title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let finalTitle = trimmedTitle.isEmpty
                ? members.map(\.name).sorted().joined(separator: ", ")
                : trimmedTitle
            return try conversations.insertConversation(
                title: finalTitle, memberIDs: members.map(\.id).sorted(), createdAt: date, tx)
        }
    }

    // snippet:begin chat-send
    /// Sends one message.
    ///
    /// - Throws: ``Failure`` when the conversation, the membership, the sender
    ///   or the text is not acceptable (nothing is written), or `DBError`.
    public func send(
        _ body: String, from senderID: Int64, in conversationID: Int64, at date: Date = Date()
    ) throws -> Message {
        try db.write { tx in
            try post(body, from: senderID, in: conversationID, at: date, tx)
        }
    }
    // snippet:end chat-send

    /// Sends several messages at once, all or nothing: if one is refused,
    /// none is sent and nobody is notified.
    ///
    /// - Throws: the first ``Failure``, or `DBError`.
    public func sendAll(
        _ bodies: [String], from senderID: Int64, in conversationID: Int64, at date: Date = Date()
    ) throws -> [Message] {
        try db.write { tx in
            try bodies.map { body in try post(body, from: senderID, in: conversationID, at: date, tx) }
        }
    }

    // snippet:begin chat-post
    private func post(
        _ body: String, from senderID: Int64, in conversationID: Int64, at date: Date,
        _ tx: DBWriteTransaction
    ) throws -> Message {
        guard try conversations.conversation(id: conversationID, tx) != nil else {
            throw Failure.unknownConversation(conversationID)
        }
        let memberIDs = try conversations.memberIDs(conversationID: conversationID, tx)
        guard memberIDs.contains(senderID) else {
            throw Failure.notAMember(userID: senderID, conversationID: conversationID)
        }
        guard let sender = try users.user(id: senderID, tx) else { throw Failure.unknownUser(senderID) }
        guard !sender.isBlocked else { throw Failure.blocked(senderID) }

        let text = try sanitizer.sanitize(body, tx)
        guard !text.isEmpty else { throw Failure.emptyMessage }
        guard text.count <= Self.maximumMessageLength else { throw Failure.messageTooLong(text.count) }

        let message = try messages.insert(
            conversationID: conversationID, senderID: senderID, body: text, sentAt: date, tx)
        // The sender has read their own message.
        try conversations.setLastReadMessageID(
            message.id, conversationID: conversationID, userID: senderID, tx)
        // Once per transaction, however many messages it posts.
        tx.addFinalization(key: "conversation \(conversationID) lastMessageAt") { tx in
            try conversations.setLastMessageAt(date, conversationID: conversationID, tx)
        }
        // Only once the message is committed, and not to members who muted
        // the conversation (a setting read in this transaction's snapshot).
        let recipientIDs = try memberIDs.filter { memberID in
            try memberID != senderID && !settings.isMuted(conversationID: conversationID, userID: memberID, tx)
        }
        tx.addSyncCompletion { notifier.messageWasSent(message, to: recipientIDs) }
        return message
    }
    // snippet:end chat-post

    // snippet:begin chat-mute
    /// Mutes or unmutes a conversation for one of its members: a muted
    /// conversation sends them no notification and leaves their inbox badge
    /// alone. The setting is kept in the database's `KeyValueStore`
    /// (``NotificationSettings``), not in a table of the app's schema.
    ///
    /// - Returns: `false` when the setting already had this value (nothing written).
    /// - Throws: ``Failure/notAMember(userID:conversationID:)`` (nothing
    ///   written), or `DBError`.
    public func setMuted(_ muted: Bool, conversationID: Int64, userID: Int64) throws -> Bool {
        try db.write { tx in
            guard try conversations.memberIDs(conversationID: conversationID, tx).contains(userID) else {
                throw Failure.notAMember(userID: userID, conversationID: conversationID)
            }
            guard try settings.isMuted(conversationID: conversationID, userID: userID, tx) != muted else {
                return false
            }
            try settings.setMuted(muted, conversationID: conversationID, userID: userID, tx)
            return true
        }
    }
    // snippet:end chat-mute

    /// Whether `userID` muted the conversation.
    ///
    /// - Throws: `KeyValueStoreError` when the stored setting is not a
    ///   boolean, or `DBError`.
    public func isMuted(conversationID: Int64, userID: Int64) throws -> Bool {
        try db.read { tx in try settings.isMuted(conversationID: conversationID, userID: userID, tx) }
    }
}
