import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// A legacy consumer: it reaches `ItemStore`, `Clock` and `Counters`
/// directly (through `self.`, a local, a parameter, and static calls),
/// bridging each transaction by hand. `txkit shim` reads these uses.
package final class ItemManager: Sendable {
    let db: any DB
    let store: ItemStore

    package init(db: any DB, store: ItemStore = ItemStore()) {
        self.db = db
        self.store = store
    }

    package func add(_ rawName: String) throws -> Item {
        try db.write { tx in
            let legacy = StoreTransaction(try SQLiteDB.shimOnlyBridge(tx))
            var name = try store.validate(rawName)
            store.normalize(&name, transaction: legacy)
            store.whenInserted({ _ in }, transaction: legacy)
            let item = try self.store.insert(name: name, transaction: legacy)
            _ = try Counters.next("items", transaction: legacy)
            _ = Clock().now(transaction: legacy)
            let clock = Clock()
            _ = clock.now(transaction: legacy)
            Counters.prefix = "item"
            store.limit = 20
            return item
        }
    }

    package func lookups(in store: ItemStore, id: Int64) throws -> String {
        try db.read { tx in
            let legacy = StoreTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let byID = try store.item(id: id, transaction: legacy)
            let byName = try store.item(named: "a", transaction: legacy)
            let counts = try store.count(id, transaction: legacy) + store.count("a", transaction: legacy)
            let first = try store.names(transaction: legacy)
            let page = try store.names(limit: 5, transaction: legacy)
            let all = try store.names(limit: 5, offset: 1, transaction: legacy)
            let decoded = try store.decode(Item.self, json: #"{"id":1,"name":"a"}"#, transaction: legacy)
            let upper = store.transform(first) { $0.uppercased() }
            let pair = try store.itemAndCount(id: id, transaction: legacy)
            let summary = store.summary(transaction: legacy)
            let label = store.label(transaction: legacy)
            let touched = try store.touchCount(transaction: legacy)
            var modern = 0
            if #available(macOS 15, iOS 18, *) {
                modern = try store.modernCount(transaction: legacy)
            }
            return "\(byID as Any) \(byName as Any) \(counts) \(page) \(all) \(decoded) \(upper) \(pair as Any) "
                + "\(summary) \(label) \(touched) \(modern) \(store.name) \(store.limit) \(Counters.prefix)"
        }
    }

    package func prepare() async -> Bool {
        await store.warmUp()
    }

    @MainActor
    package func title(of item: Item) -> String {
        store.displayName(for: item)
    }
}
