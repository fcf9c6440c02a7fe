import GRDB

/// Prices of items, in cents.
final class PriceFinder: Sendable {
    init() {}

    /// The price of an item, if it has one.
    func price(of item: String, transaction: ShopTransaction) throws -> Int? {
        try Int.fetchOne(transaction.database, sql: "SELECT cents FROM price WHERE item = ?", arguments: [item])
    }

    /// Sets the price of an item.
    func setPrice(_ cents: Int, of item: String, transaction: ShopTransaction) throws {
        try transaction.database.execute(
            sql: "INSERT OR REPLACE INTO price (item, cents) VALUES (?, ?)", arguments: [item, cents])
    }

    /// The sum of the prices of some items; items without a price count 0.
    func total(of items: [String], transaction: ShopTransaction) throws -> Int {
        var total = 0
        for item in items {
            total += try price(of: item, transaction: transaction) ?? 0
        }
        return total
    }

    /// How many items have a price.
    static func count(transaction: ShopTransaction) -> Int {
        (try? Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM price")) ?? 0
    }
}
