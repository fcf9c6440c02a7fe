import TransactionKit
import TransactionKitSQLite

/// A manager that reaches its legacy finder by bridging each transaction
/// by hand; `txkit shim --consumer OrderManager --legacy LegacyOrderFinder
/// --apply` makes it use the finder through `OrderManager.Shims`.
public final class OrderManager: Sendable {
    let db: any DB
    let finder: LegacyOrderFinder

    public init(db: any DB, finder: LegacyOrderFinder = LegacyOrderFinder()) {
        self.db = db
        self.finder = finder
    }

    /// Places an order; returns how many there are now.
    public func place(_ item: String) throws -> Int {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            try finder.insert(item: item, db: database)
            return try finder.count(db: database)
        }
    }

    /// How many orders there are.
    public func orderCount() throws -> Int {
        try db.read { tx in
            try finder.count(db: try SQLiteDB.shimOnlyBridge(tx))
        }
    }
}
