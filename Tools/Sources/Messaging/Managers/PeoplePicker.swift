import Foundation
import TransactionKit

/// Suggests people to start a conversation with, as a person types.
///
/// ```swift
/// let picker = PeoplePicker(db: db, userSearchFinder: UserSearchFinder())
/// let suggestions = try picker.suggestions(for: "al")
/// ```
///
/// **Transaction semantics:** one read transaction per call.
// snippet:begin people-picker
public final class PeoplePicker: Sendable {
    let db: any DB
    let userSearchFinder: any UserSearchFinding

    /// The most suggestions one call returns.
    public static let limit = 8

    /// Creates the picker.
    ///
    /// - Parameters:
    ///   - db: The database.
    ///   - userSearchFinder: `UserSearchFinder()` in production, a mock in unit tests.
    public init(db: any DB, userSearchFinder: any UserSearchFinding) {
        self.db = db
        self.userSearchFinder = userSearchFinder
    }

    /// The users whose names start with `text` once trimmed, blocked users
    /// left out; none for blank text (without opening a transaction).
    public func suggestions(for text: String) throws -> [User] {
        let prefix = text.trimmingCharacters(in: .whitespaces)
        guard !prefix.isEmpty else { return [] }
        return try db.read { tx in
            try self.userSearchFinder.users(prefix: prefix, limit: Self.limit, tx)
                .filter { !$0.isBlocked }
        }
    }
}
// snippet:end people-picker
