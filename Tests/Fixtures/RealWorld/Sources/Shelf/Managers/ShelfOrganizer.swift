import TransactionKit
import TransactionKitSQLite

/// Puts books in bookcases; reads titles in a closure whose parameter
/// type is written.
package final class ShelfOrganizer: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Creates the bookcase, puts the books in it; returns the titles
    /// found and every bookcase's name.
    package func place(_ isbns: [String], in bookcase: String) throws -> ([String], [String]) {
        try db.write { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            try Bookcase.create(name: bookcase, in: context)
            for isbn in isbns {
                try Bookcase.add(isbn: isbn, toBookcase: bookcase, in: context)
            }
            let titles = isbns.compactMap { (isbn: String) -> String? in
                Book.fetch(isbn: isbn, in: context)?.title
            }
            return (titles, Bookcase.names(in: context))
        }
    }
}
