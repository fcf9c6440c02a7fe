import TransactionKit

/// Which conversations each user muted, kept in the database's
/// `KeyValueStore`: a muted conversation sends its member no notification
/// and leaves their inbox badge alone.
///
/// ```swift
/// try db.write { tx in
///     try NotificationSettings().setMuted(true, conversationID: lunch.id, userID: bob.id, tx)
/// }
/// ```
///
/// The values live in the collection ``collection`` (`"mutedConversations"`),
/// one boolean `true` per muted conversation under the key
/// ``key(conversationID:userID:)`` (`"<userID>/<conversationID>"`); an
/// unmuted conversation has no key. On `SQLiteDB` they are rows of the table
/// `transactionkit_key_value`; on `MockDB`, seed them with
/// `MockDB(keyValues: ["mutedConversations": ["2/10": true]])` and inspect
/// them with `keyValues(in:)`.
///
/// **Transaction semantics:** every call takes the transaction as its last
/// argument, so a setting commits and rolls back with the rest of it.
///
/// **Thread:** the thread that runs the transaction's block.
public struct NotificationSettings: Sendable {
    /// The key-value collection that holds the muted conversations.
    public static let collection = "mutedConversations"

    /// The key under which a muted conversation is stored for a user.
    ///
    /// ```swift
    /// NotificationSettings.key(conversationID: 10, userID: 2) // "2/10"
    /// ```
    ///
    /// - Parameters:
    ///   - conversationID: The conversation.
    ///   - userID: The member who muted it.
    /// - Returns: `"<userID>/<conversationID>"`.
    public static func key(conversationID: Int64, userID: Int64) -> String {
        "\(userID)/\(conversationID)"
    }

    private let store = KeyValueStore(collection: NotificationSettings.collection)

    /// Creates the settings; they hold no data (the data is in the database).
    public init() {}

    /// Whether `userID` muted the conversation.
    ///
    /// **Transaction semantics:** reads the transaction's snapshot.
    ///
    /// - Parameters:
    ///   - conversationID: The conversation.
    ///   - userID: The member.
    ///   - tx: A read or write transaction.
    /// - Throws: `KeyValueStoreError` when the stored value is not a boolean,
    ///   or `DBError`.
    public func isMuted(conversationID: Int64, userID: Int64, _ tx: DBReadTransaction) throws -> Bool {
        try store.getBool(Self.key(conversationID: conversationID, userID: userID), defaultValue: false, transaction: tx)
    }

    /// Mutes or unmutes the conversation for `userID`.
    ///
    /// **Transaction semantics:** part of `tx`: kept if it commits, gone if
    /// it rolls back. Unmuting removes the key.
    ///
    /// - Parameters:
    ///   - muted: `true` to mute.
    ///   - conversationID: The conversation.
    ///   - userID: The member.
    ///   - tx: The write transaction.
    /// - Throws: `DBError`.
    public func setMuted(_ muted: Bool, conversationID: Int64, userID: Int64, _ tx: DBWriteTransaction) throws {
        let key = Self.key(conversationID: conversationID, userID: userID)
        if muted {
            try store.setBool(true, key: key, transaction: tx)
        } else {
            try store.removeValue(forKey: key, transaction: tx)
        }
    }
}
