import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The production ``AsyncUserFinding``: SQL on the `app_user` table of
/// ``MessagingPostgresSchema``, reached through `PostgresDB.shimOnlyBridge(_:)`.
///
/// ```swift
/// let chat = AsyncChatManager(db: db, users: PostgresUserFinder(), …)
/// ```
///
/// **Transaction semantics:** each method runs its statements inside the
/// transaction it is given and never begins, commits or rolls back. A
/// statement that fails aborts the whole transaction on the server: the
/// error is thrown, and the write rolls back.
///
/// **Task:** the task that runs the transaction's block.
///
/// - Warning: Given a `MockDB` transaction, the bridge reports a misuse
///   ("mock the finder that called the bridge"): unit tests pass a mock of
///   ``AsyncUserFinding`` instead.
public struct PostgresUserFinder: AsyncUserFinding {
    let logger: Logger

    /// Creates the finder.
    ///
    /// - Parameter logger: Where postgres-nio logs the finder's queries.
    public init(logger: Logger = PostgresDB.defaultLogger) {
        self.logger = logger
    }

    /// Inserts a user. See ``AsyncUserFinding``.
    public func insertUser(name: String, _ tx: DBWriteTransaction) async throws -> User {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            "INSERT INTO app_user (name) VALUES (\(name)) RETURNING id", logger: logger)
        for try await id in rows.decode(Int64.self) {
            return User(id: id, name: name)
        }
        throw PostgresMissingRow(statement: "INSERT INTO app_user")
    }

    /// The user with this id, if any. See ``AsyncUserFinding``.
    public func user(id: Int64, _ tx: DBReadTransaction) async throws -> User? {
        let connection = try PostgresDB.shimOnlyBridge(tx)
        let rows = try await connection.query(
            "SELECT id, name, is_blocked FROM app_user WHERE id = \(id)", logger: logger)
        for try await (id, name, isBlocked) in rows.decode((Int64, String, Bool).self) {
            return User(id: id, name: name, isBlocked: isBlocked)
        }
        return nil
    }
}
