import TransactionKit

/// What callers use of ``UserSearchFinder``, taking TransactionKit transactions (Good Way).
///
/// Production passes `UserSearchFinder`; unit tests pass `UserSearchFindingMock`
/// (`txkit mock --protocol UserSearchFinding`). Written by `txkit convert --legacy UserSearchFinder`;
/// maintained by hand from now on.
public protocol UserSearchFinding: Sendable {
    /// The users whose names start with `prefix` (ignoring case), by name,
    /// at most `limit` of them.
    ///
    /// Read: its body only reads (fetchAll(…)) (rule: body)
    func users(prefix: String, limit: Int, _ tx: DBReadTransaction) throws -> [User]
}

/// The production ``UserSearchFinding``.
extension UserSearchFinder: UserSearchFinding {}
