import TransactionKit
import TransactionKitSQLite

/// Imports a price list. It still calls the legacy finder directly.
final class PriceImporter: Sendable {
    let db: any DB

    init(db: any DB) {
        self.db = db
    }

    /// Stores the prices; returns how many items have one afterwards.
    func importPrices(_ prices: [String: Int]) throws -> Int {
        try db.write { tx in
            for (item, cents) in prices.sorted(by: { $0.key < $1.key }) {
                try PriceFinder().setPrice(cents, of: item, tx)
            }
            return try PriceFinder.count(tx)
        }
    }
}
