import GRDB
import TransactionKit
import TransactionKitSQLite

/// User search for the people picker: names that start with what a person
/// typed. Written in the legacy style (every method took the concrete
/// ``LegacyTransaction``), it is the finder the example converted with
/// `txkit convert` (Guides/MigratingLegacyFinders.md, "Retiring a shim"):
/// it takes `DBReadTransaction` now, and conforms to ``UserSearchFinding``.
///
/// **Thread:** stateless; call it from the thread that runs the transaction.
package final class UserSearchFinder: Sendable {
    package init() {}

    /// The users whose names start with `prefix` (ignoring case), by name,
    /// at most `limit` of them.
    package func users(prefix: String, limit: Int, _ tx: DBReadTransaction) throws -> [User] {
        let transaction = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
        return try Row.fetchAll(
            transaction.database,
            sql: "SELECT * FROM user WHERE name LIKE ? ESCAPE '\\' ORDER BY name LIMIT ?",
            arguments: [Self.likePattern(prefix), limit]
        ).map(User.init(row:))
    }

    /// How many users are blocked.
    package func blockedCount(_ tx: DBReadTransaction) throws -> Int {
        let transaction = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
        return try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM user WHERE isBlocked") ?? 0
    }

    /// `prefix` as a `LIKE` pattern that matches it literally, then anything.
    static func likePattern(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
