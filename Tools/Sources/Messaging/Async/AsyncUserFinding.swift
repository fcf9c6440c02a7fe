import TransactionKit

/// Data access for users, for managers that run on an ``/TransactionKit/AsyncDB``:
/// a Good-Way finder whose methods `await` (a PostgreSQL driver awaits the
/// network).
///
/// ```swift
/// let alice = try await db.write { tx in try await users.insertUser(name: "Alice", tx) }
/// ```
///
/// Production passes ``PostgresUserFinder``; unit tests pass a mock.
///
/// **Transaction semantics:** every method runs inside the transaction it is
/// given; the writing method demands a `DBWriteTransaction`, so calling it
/// from a `read` block does not compile.
///
/// **Task:** the task that runs the transaction's block.
///
/// - Warning: Never store the transaction; a mock checks it on every call
///   (`MockMethod` does), so an escaped transaction is caught in unit tests
///   as it would be in production.
public protocol AsyncUserFinding: Sendable {
    /// Inserts a user and returns it.
    ///
    /// - Throws: `DBConstraintViolation` of kind `unique` when another user
    ///   has this name, ignoring case.
    func insertUser(name: String, _ tx: DBWriteTransaction) async throws -> User
    /// The user with this id, or `nil`.
    func user(id: Int64, _ tx: DBReadTransaction) async throws -> User?
}
