import GRDB

/// Legacy data access for users: a class with instance methods, all taking
/// the concrete ``LegacyTransaction``.
///
/// It is left untouched by the migration: ``AccountManager`` and
/// ``ChatManager`` reach it through the Shortcut Way (per-consumer shims and
/// wrappers), because other legacy code still calls it with a
/// `LegacyTransaction`.
///
/// **Thread:** stateless; call it from the thread that runs the transaction.
// snippet:begin legacy-user-finder
package final class LegacyUserFinder: Sendable {
    package init() {}

    package func user(id: Int64, transaction: LegacyTransaction) throws -> User? {
        try Row.fetchOne(transaction.database, sql: "SELECT * FROM user WHERE id = ?", arguments: [id])
            .map(User.init(row:))
    }

    package func user(named name: String, transaction: LegacyTransaction) throws -> User? {
        try Row.fetchOne(transaction.database, sql: "SELECT * FROM user WHERE name = ?", arguments: [name])
            .map(User.init(row:))
    }

    package func insertUser(named name: String, transaction: LegacyTransaction) throws -> User {
        try transaction.database.execute(sql: "INSERT INTO user (name) VALUES (?)", arguments: [name])
        return User(id: transaction.database.lastInsertedRowID, name: name)
    }

    package func setBlocked(_ isBlocked: Bool, userID: Int64, transaction: LegacyTransaction) throws {
        try transaction.database.execute(
            sql: "UPDATE user SET isBlocked = ? WHERE id = ?", arguments: [isBlocked, userID])
    }

    package func allUsers(transaction: LegacyTransaction) throws -> [User] {
        try Row.fetchAll(transaction.database, sql: "SELECT * FROM user ORDER BY name").map(User.init(row:))
    }
}
// snippet:end legacy-user-finder

extension User {
    init(row: Row) {
        self.init(id: row["id"], name: row["name"], isBlocked: row["isBlocked"])
    }
}
