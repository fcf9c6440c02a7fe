import TransactionKit

/// Totals a basket. It reaches PriceFinder through its shim (Shortcut Way).
final class Checkout: Sendable {
    let db: any DB
    let prices: any Checkout.Shims.PriceFinder

    /// - Parameter prices: `Checkout.Wrappers.PriceFinder()` in production,
    ///   `Checkout.Mocks.PriceFinder()` in unit tests.
    init(db: any DB, prices: any Checkout.Shims.PriceFinder = Checkout.Wrappers.PriceFinder()) {
        self.db = db
        self.prices = prices
    }

    /// The basket's total, in cents.
    func total(of items: [String]) throws -> Int {
        try db.read { tx in
            try prices.total(of: items, tx)
        }
    }
}
