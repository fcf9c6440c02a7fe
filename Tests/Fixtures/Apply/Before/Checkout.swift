import GeneratorFixture
import TransactionKit
import TransactionKitSQLite

/// A legacy consumer as a team finds it: it reaches `ItemStore` through a
/// stored property and `Counters` through static calls, bridging each
/// transaction by hand. The ApplyFixture target holds the same type after
/// `txkit shim --apply` rewrote it (for ItemStore, then for Counters).
package final class Checkout: Sendable {
    let db: any DB
    let store: ItemStore

    package init(db: any DB, store: ItemStore = ItemStore()) {
        self.db = db
        self.store = store
    }

    /// Adds an item and numbers it.
    package func add(_ name: String) throws -> (item: Item, number: Int64) {
        try db.write { tx in
            let legacy = StoreTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let item = try store.insert(name: name, transaction: legacy)
            let number = try Counters.next("checkout", transaction: legacy)
            return (item, number)
        }
    }

    /// The item with this id.
    package func item(_ id: Int64) throws -> Item? {
        try db.read { tx in
            try store.item(id: id, transaction: StoreTransaction(try SQLiteDB.shimOnlyBridge(tx)))
        }
    }

    /// A line for the receipt.
    package func receipt(_ id: Int64) throws -> String {
        try db.read { tx in
            let legacy = StoreTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let count = try store.count(id, transaction: legacy)
            return "\(Counters.prefix) \(id): \(count) \(store.summary(transaction: legacy))"
        }
    }
}
