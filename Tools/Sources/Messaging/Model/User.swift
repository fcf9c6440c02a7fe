/// A person who can send messages.
public struct User: Sendable, Hashable, Identifiable {
    /// The row id.
    public var id: Int64
    /// The display name, unique regardless of case.
    public var name: String
    /// A blocked user can still read, but can no longer send.
    public var isBlocked: Bool

    /// Creates a user value (finders create them from rows; tests stub them).
    public init(id: Int64, name: String, isBlocked: Bool = false) {
        self.id = id
        self.name = name
        self.isBlocked = isBlocked
    }
}
