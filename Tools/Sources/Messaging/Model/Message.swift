import Foundation

/// One message in a conversation.
public struct Message: Sendable, Hashable, Identifiable {
    /// The row id; ids grow with time within a database.
    public var id: Int64
    /// The conversation it belongs to.
    public var conversationID: Int64
    /// Who sent it.
    public var senderID: Int64
    /// The sanitized text.
    public var body: String
    /// When it was sent.
    public var sentAt: Date

    /// Creates a message value (finders create them from rows; tests stub them).
    public init(id: Int64, conversationID: Int64, senderID: Int64, body: String, sentAt: Date) {
        self.id = id
        self.conversationID = conversationID
        self.senderID = senderID
        self.body = body
        self.sentAt = sentAt
    }
}
