import GRDB

// Fetching and placing books, declared apart from the entity (members in
// another file's extension).
extension Bookcase {
    /// The bookcases' names, sorted.
    package static func names(in context: ManagedContext) -> [String] {
        (try? String.fetchAll(context.database, sql: "SELECT name FROM shelf_bookcase ORDER BY name")) ?? []
    }

    /// Puts a book in a bookcase.
    package static func add(isbn: String, toBookcase name: String, in context: ManagedContext) throws {
        try context.database.execute(
            sql: "INSERT INTO shelf_placement (isbn, bookcase) VALUES (?, ?)", arguments: [isbn, name])
    }

    /// Deletes the bookcases that hold no book.
    package static func removeEmpty(in context: ManagedContext) throws {
        try context.database.execute(sql: """
            DELETE FROM shelf_bookcase WHERE name NOT IN (SELECT bookcase FROM shelf_placement)
            """)
    }
}
