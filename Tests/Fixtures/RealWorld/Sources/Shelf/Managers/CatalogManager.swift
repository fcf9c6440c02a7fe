import TransactionKit
import TransactionKitSQLite

/// Adds books to the catalog and tags them.
package final class CatalogManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Adds a book unless it is there; returns how many books there are.
    package func add(isbn: String, title: String, tags: [String]) throws -> Int {
        try db.write { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            if Book.fetch(isbn: isbn, in: context) == nil {
                try Book.insert(isbn: isbn, title: title, into: context)
            }
            for tag in tags {
                try TagFetcher().addTag(tag, to: isbn, in: context)
            }
            return Book.count(in: context)
        }
    }

    /// The book's tag names (the fetcher's default limit).
    package func tagNames(isbn: String) throws -> [String] {
        try db.read { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            return TagFetcher().tags(for: isbn, in: context).map(\.name)
        }
    }
}
