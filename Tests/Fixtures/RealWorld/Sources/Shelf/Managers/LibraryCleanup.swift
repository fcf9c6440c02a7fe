import TransactionKit
import TransactionKitSQLite

/// Empties the library, with the entities' shared batch delete.
package final class LibraryCleanup: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Deletes every book and the bookcases left empty; returns the
    /// bookcases that remain.
    package func reset() throws -> [String] {
        try db.write { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            try Book.deleteAll(in: context)
            try Bookcase.removeEmpty(in: context)
            return Bookcase.names(in: context)
        }
    }
}
