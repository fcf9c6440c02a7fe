import GRDB

/// The fixture's legacy transaction: a GRDB connection inside a transaction.
package struct StoreTransaction {
    package let database: Database

    package init(_ database: Database) {
        self.database = database
    }
}
