import GRDB

/// A legacy finder as apps have them: every member takes GRDB's `Database`.
public final class LegacyOrderFinder: Sendable {
    public init() {}

    /// Adds an order for `item`.
    public func insert(item: String, db: Database) throws {
        try db.execute(sql: "INSERT INTO orders (item) VALUES (?)", arguments: [item])
    }

    /// How many orders there are.
    public func count(db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM orders") ?? 0
    }
}
