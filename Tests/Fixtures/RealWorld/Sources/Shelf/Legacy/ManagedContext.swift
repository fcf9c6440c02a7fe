import GRDB

/// Stands in for Core Data's `NSManagedObjectContext`, which does not exist
/// on Linux: the object every legacy fetch and insert takes (`in context:`),
/// valid only inside the block that made it.
///
/// Unlike Core Data it keeps no unsaved changes: each insert or update runs
/// its SQL at once on the GRDB connection it wraps, inside the transaction
/// of the block that made it, so the stand-in needs no `save()`.
package final class ManagedContext {
    /// The connection, inside an open transaction.
    package let database: Database

    /// Wraps a connection that is inside a transaction.
    package init(_ database: Database) {
        self.database = database
    }
}
