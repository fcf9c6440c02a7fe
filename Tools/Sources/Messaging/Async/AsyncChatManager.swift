import Foundation
import TransactionKit

/// Business logic for users, conversations and messages, written once
/// against ``/TransactionKit/AsyncDB``: the example's async slice.
///
/// ```swift
/// let chat = AsyncChatManager(
///     db: db,
///     users: PostgresUserFinder(),
///     conversations: PostgresConversationFinder(),
///     messages: PostgresMessageFinder(),
///     notifier: notifier)
/// let alice = try await chat.register(name: "Alice")
/// let message = try await chat.send("Lunch?", from: alice.id, in: conversation.id)
/// ```
///
/// It depends on `TransactionKit` only. Production passes a `PostgresDB`
/// and the PostgreSQL finders (``AsyncMessagingServices/live(db:notifier:logger:)``);
/// local development and integration tests an `SQLiteDB` and the SQLite
/// finders (``AsyncMessagingServices/sqlite(db:notifier:)``); unit tests
/// pass a `MockDB` and mocks of ``AsyncUserFinding``,
/// ``AsyncConversationFinding`` and ``AsyncMessageFinding``. It refuses
/// what ``ChatManager`` refuses, with the same ``ChatManager/Failure``.
///
/// **Transaction semantics:** each method is one write transaction. A batch
/// of messages is all or nothing. Recipients are notified by a sync
/// completion, after the commit, never for a rolled-back message.
/// `PostgresDB` may run a block again when PostgreSQL rolls it back as a
/// conflict with a concurrent transaction, so the block does nothing but
/// database work: the notification, an effect outside the database, waits
/// for the commit that succeeded, and runs once.
///
/// **Tasks:** methods suspend the calling task while the transaction runs;
/// call them from any task.
///
/// - Warning: Do not call these methods from inside a transaction of the
///   same database, in the same task (nested transaction): the process stops.
public struct AsyncChatManager: Sendable {
    /// Why a request was refused: the reasons of ``ChatManager``.
    public typealias Failure = ChatManager.Failure

    let db: any AsyncDB
    let users: any AsyncUserFinding
    let conversations: any AsyncConversationFinding
    let messages: any AsyncMessageFinding
    let notifier: any MessageNotifying

    /// Creates the manager.
    ///
    /// - Parameters:
    ///   - db: Where transactions come from: `PostgresDB`, `SQLiteDB` or `MockDB`.
    ///   - users: ``PostgresUserFinder`` in production, a mock in unit tests.
    ///   - conversations: ``PostgresConversationFinder`` in production, a mock in unit tests.
    ///   - messages: ``PostgresMessageFinder`` in production, a mock in unit tests.
    ///   - notifier: Told about each committed message.
    public init(
        db: any AsyncDB,
        users: any AsyncUserFinding,
        conversations: any AsyncConversationFinding,
        messages: any AsyncMessageFinding,
        notifier: any MessageNotifying
    ) {
        self.db = db
        self.users = users
        self.conversations = conversations
        self.messages = messages
        self.notifier = notifier
    }

    /// Registers a user under a trimmed name, unique regardless of case.
    ///
    /// The database's unique index is the only check of the name's
    /// uniqueness, so two registrations that race to one name cannot both
    /// succeed: the loser's `DBConstraintViolation` is turned into
    /// ``AccountManager/Failure/nameTaken(_:)``.
    ///
    /// - Throws: ``AccountManager/Failure/invalidName(_:)`` (without opening
    ///   a transaction), ``AccountManager/Failure/nameTaken(_:)``, or `DBError`.
    public func register(name: String) async throws -> User {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard (2...32).contains(name.count),
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" })
        else {
            throw AccountManager.Failure.invalidName(name)
        }
        do {
            return try await db.write { tx in try await users.insertUser(name: name, tx) }
        } catch let violation as DBConstraintViolation where violation.kind == .unique {
            throw AccountManager.Failure.nameTaken(name)
        }
    }

    /// Starts a conversation between `creatorID` and `otherIDs`.
    ///
    /// Duplicate ids are ignored. The members are not looked up one by one:
    /// the database refuses a member id that names no user, and that
    /// refusal reaches the caller unchanged, as a `DBConstraintViolation`
    /// of kind `foreignKey`, with nothing written.
    ///
    /// - Throws: ``ChatManager/Failure/tooFewMembers``,
    ///   ``ChatManager/Failure/unknownUser(_:)`` (the creator),
    ///   ``ChatManager/Failure/blocked(_:)`` (the creator),
    ///   `DBConstraintViolation`, or `DBError`.
    public func startConversation(
        title: String, creatorID: Int64, with otherIDs: [Int64], at date: Date = Date()
    ) async throws -> Conversation {
        let memberIDs = Array(Set([creatorID] + otherIDs)).sorted()
        guard memberIDs.count >= 2 else { throw Failure.tooFewMembers }
        return try await db.write { tx in
            guard let creator = try await users.user(id: creatorID, tx) else {
                throw Failure.unknownUser(creatorID)
            }
            guard !creator.isBlocked else { throw Failure.blocked(creatorID) }
            return try await conversations.insertConversation(
                title: title, memberIDs: memberIDs, createdAt: date, tx)
        }
    }

    /// Sends one message.
    ///
    /// - Throws: ``ChatManager/Failure`` when the conversation, the
    ///   membership, the sender or the text is not acceptable (nothing is
    ///   written, nobody is notified), or `DBError`.
    public func send(
        _ body: String, from senderID: Int64, in conversationID: Int64, at date: Date = Date()
    ) async throws -> Message {
        try await db.write { tx in
            try await post(body, from: senderID, in: conversationID, at: date, tx)
        }
    }

    /// Sends several messages at once, all or nothing: if one is refused,
    /// none is sent and nobody is notified.
    ///
    /// - Throws: the first ``ChatManager/Failure``, or `DBError`.
    public func sendAll(
        _ bodies: [String], from senderID: Int64, in conversationID: Int64, at date: Date = Date()
    ) async throws -> [Message] {
        try await db.write { tx in
            var sent: [Message] = []
            for body in bodies {
                sent.append(try await post(body, from: senderID, in: conversationID, at: date, tx))
            }
            return sent
        }
    }

    private func post(
        _ body: String, from senderID: Int64, in conversationID: Int64, at date: Date,
        _ tx: DBWriteTransaction
    ) async throws -> Message {
        guard try await conversations.conversation(id: conversationID, tx) != nil else {
            throw Failure.unknownConversation(conversationID)
        }
        let memberIDs = try await conversations.memberIDs(conversationID: conversationID, tx)
        guard memberIDs.contains(senderID) else {
            throw Failure.notAMember(userID: senderID, conversationID: conversationID)
        }
        guard let sender = try await users.user(id: senderID, tx) else { throw Failure.unknownUser(senderID) }
        guard !sender.isBlocked else { throw Failure.blocked(senderID) }

        let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Failure.emptyMessage }
        guard text.count <= ChatManager.maximumMessageLength else { throw Failure.messageTooLong(text.count) }

        // snippet:begin async-chat-effects
        let message = try await messages.insert(
            conversationID: conversationID, senderID: senderID, body: text, sentAt: date, tx)
        // The sender has read their own message.
        try await conversations.setLastReadMessageID(
            message.id, conversationID: conversationID, userID: senderID, tx)
        // Not a finalization: finalizations are synchronous, and these
        // finders await.
        try await conversations.setLastMessageAt(date, conversationID: conversationID, tx)
        // Outside the database: once, after the commit that succeeded.
        let recipientIDs = memberIDs.filter { $0 != senderID }
        tx.addSyncCompletion { notifier.messageWasSent(message, to: recipientIDs) }
        return message
        // snippet:end async-chat-effects
    }
}
