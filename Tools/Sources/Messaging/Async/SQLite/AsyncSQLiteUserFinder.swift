import GRDB
import TransactionKit
import TransactionKitSQLite

/// ``AsyncUserFinding`` on SQLite: the `user` table of ``MessagingSchema``,
/// reached through `SQLiteDB.shimOnlyBridge(_:)`.
///
/// ```swift
/// let chat = AsyncChatManager(
///     db: try SQLiteDB(path: path, migrator: MessagingSchema.migrator),
///     users: AsyncSQLiteUserFinder(), …)
/// ```
///
/// The methods are `async` to fit the protocol; their statements are
/// synchronous GRDB calls, which run on the transaction's connection
/// thread (where `SQLiteDB` runs an async block's nonisolated code).
///
/// **Transaction semantics:** each method runs inside the transaction it is
/// given and never begins, commits or rolls back.
///
/// - Warning: Given a `MockDB` or `PostgresDB` transaction, the bridge
///   reports a misuse.
public struct AsyncSQLiteUserFinder: AsyncUserFinding {
    /// Creates the finder; it holds no state.
    public init() {}

    /// Inserts a user. See ``AsyncUserFinding``.
    public func insertUser(name: String, _ tx: DBWriteTransaction) async throws -> User {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        try db.execute(sql: "INSERT INTO user (name) VALUES (?)", arguments: [name])
        return User(id: db.lastInsertedRowID, name: name)
    }

    /// The user with this id, if any. See ``AsyncUserFinding``.
    public func user(id: Int64, _ tx: DBReadTransaction) async throws -> User? {
        try Row.fetchOne(try SQLiteDB.shimOnlyBridge(tx), sql: "SELECT * FROM user WHERE id = ?", arguments: [id])
            .map(User.init(row:))
    }
}
