import GRDB

/// The app's historical transaction type: a thin wrapper around GRDB's
/// `Database`, which every legacy finder takes.
///
/// Real apps grow one of these (to add logging, or to hide which database
/// library they use). New code never creates one: a Shortcut-Way wrapper
/// builds it from a TransactionKit transaction, in one audited place:
///
/// ```swift
/// let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
/// ```
///
/// **Lifetime:** valid only while the TransactionKit transaction it came
/// from is open; never store it.
// snippet:begin legacy-transaction
package struct LegacyTransaction {
    /// The GRDB connection, inside an open transaction.
    package let database: Database

    /// Wraps a connection that is inside a transaction.
    package init(_ database: Database) {
        self.database = database
    }
}
// snippet:end legacy-transaction
