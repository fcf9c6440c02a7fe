import GeneratorFixture
import TransactionKit
import TransactionKitSQLite

/// A legacy consumer as a team finds it: it reaches `ItemStore` through a
/// stored property and `Counters` through static calls, bridging each
/// transaction by hand. The ApplyFixture target holds the same type after
/// `txkit shim --apply` rewrote it (for ItemStore, then for Counters).
package final class Checkout: Sendable {
    let db: any DB
    let store: Checkout.Shims.ItemStore
    let counters: Checkout.Shims.Counters

    package init(
        db: any DB,
        store: Checkout.Shims.ItemStore = Checkout.Wrappers.ItemStore(),
        counters: Checkout.Shims.Counters = Checkout.Wrappers.Counters()
    ) {
        self.db = db
        self.store = store
        self.counters = counters
    }

    /// Adds an item and numbers it.
    package func add(_ name: String) throws -> (item: Item, number: Int64) {
        try db.write { tx in
            let item = try store.insert(name: name, tx)
            let number = try self.counters.next("checkout", tx)
            return (item, number)
        }
    }

    /// The item with this id.
    package func item(_ id: Int64) throws -> Item? {
        try db.read { tx in
            try store.item(id: id, tx)
        }
    }

    /// A line for the receipt.
    package func receipt(_ id: Int64) throws -> String {
        try db.read { tx in
            let count = try store.count(id, tx)
            return "\(self.counters.prefix) \(id): \(count) \(try store.summary(tx))"
        }
    }
}
