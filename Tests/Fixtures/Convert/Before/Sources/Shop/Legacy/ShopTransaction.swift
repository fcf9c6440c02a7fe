import GRDB

/// The shop's legacy transaction: GRDB's connection, inside a transaction.
struct ShopTransaction {
    let database: Database

    init(_ database: Database) {
        self.database = database
    }
}
