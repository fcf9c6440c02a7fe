import GRDB

/// The transaction every legacy finder reads with: a GRDB connection inside
/// an open transaction (the shape of a messaging app's "any read
/// transaction", which hides which storage engine is underneath).
///
/// **Lifetime:** valid only while the transaction it wraps is open.
package class ChatReadTransaction {
    /// The connection, inside the transaction.
    package let database: Database

    /// Wraps a connection that is inside a transaction.
    package init(_ database: Database) {
        self.database = database
    }
}

/// The transaction legacy finders write with. A subclass of the read
/// transaction, so that a write transaction goes wherever a read one does.
package final class ChatWriteTransaction: ChatReadTransaction {}
