import GRDB

/// Tags on books, fetched through a throwaway value
/// (`TagFetcher().tags(…)`); the limit has a default after the context.
package struct TagFetcher {
    /// A tag on a book.
    package struct Tag: Equatable, Sendable {
        package var isbn: String
        package var name: String
    }

    package init() {}

    /// The book's tags.
    package func tags(for isbn: String, in context: ManagedContext, limit: Int = 20) -> [Tag] {
        let names = (try? String.fetchAll(
            context.database, sql: "SELECT name FROM shelf_tag WHERE isbn = ? ORDER BY name LIMIT ?",
            arguments: [isbn, limit])) ?? []
        return names.map { Tag(isbn: isbn, name: $0) }
    }

    /// Tags a book.
    package func addTag(_ name: String, to isbn: String, in context: ManagedContext) throws {
        try context.database.execute(sql: "INSERT INTO shelf_tag (isbn, name) VALUES (?, ?)", arguments: [isbn, name])
    }
}
