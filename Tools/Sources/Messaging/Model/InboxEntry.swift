/// One line of a user's inbox, as ``InboxManager/inbox(for:)`` computes it.
public struct InboxEntry: Sendable, Hashable {
    /// The conversation.
    public var conversation: Conversation
    /// Messages from other members that the user has not read yet.
    public var unreadCount: Int
    /// The start of the latest message, or `nil` for a conversation without messages.
    public var preview: String?

    /// Creates an inbox entry.
    public init(conversation: Conversation, unreadCount: Int, preview: String?) {
        self.conversation = conversation
        self.unreadCount = unreadCount
        self.preview = preview
    }
}
