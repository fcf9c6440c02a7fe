import TransactionKit

/// One mock call made in a logged transaction: which method, in which
/// transaction. See ``TransactionLog/calls``.
///
/// ```swift
/// #expect(db.transactionLog.calls.map(\.member) == [inbox.page.member, contacts.names.member])
/// ```
public struct LoggedCall: Sendable, Hashable, CustomStringConvertible {
    /// The method called.
    public let member: MockMember
    /// The transaction it ran in.
    public let transaction: DBTransactionID
    /// Whether it ran inside a savepoint that rolled back (an enclosing one
    /// included): what it did was undone, whatever its transaction's
    /// outcome. See ``TransactionLog/callsInRolledBackSavepoints``.
    public internal(set) var isInRolledBackSavepoint = false

    init(member: MockMember, transaction: DBTransactionID) {
        self.member = member
        self.transaction = transaction
    }

    /// `MessageFinderMock.insert(_:_:) in tx#3`, followed by
    /// `(rolled back by a savepoint)` when it was.
    public var description: String {
        "\(member) in \(transaction)" + (isInRolledBackSavepoint ? " (rolled back by a savepoint)" : "")
    }
}

/// A mock's method, as the transaction log names it: equal for every call
/// to the same ``MockMethod`` (or variant) instance.
///
/// ```swift
/// #expect(db.transactionLog.calls.map(\.member) == [messages.insert.member])
/// ```
public struct MockMember: Sendable, Hashable, CustomStringConvertible {
    let identity: ObjectIdentifier
    /// The mock's type and member (`MessageFinderMock.insert(_:_:)`), as
    /// the call named it; empty for a method not called yet.
    public let name: String

    init(identity: ObjectIdentifier, name: String) {
        self.identity = identity
        self.name = name
    }

    /// Whether both name the same method instance (the name is ignored).
    public static func == (lhs: MockMember, rhs: MockMember) -> Bool {
        lhs.identity == rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    /// The name.
    public var description: String { name.isEmpty ? "a mock method" : name }
}
