import Foundation

/// A conversation between two or more users.
public struct Conversation: Sendable, Hashable, Identifiable {
    /// The row id.
    public var id: Int64
    /// The title shown in the inbox.
    public var title: String
    /// When it was started.
    public var createdAt: Date
    /// When its last message was sent, if any.
    public var lastMessageAt: Date?

    /// Creates a conversation value (finders create them from rows; tests stub them).
    public init(id: Int64, title: String, createdAt: Date, lastMessageAt: Date? = nil) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.lastMessageAt = lastMessageAt
    }
}
