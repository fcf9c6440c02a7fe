import GRDB

/// A book (an entity class with class-level fetch helpers, the shape of
/// `extension Book { static func fetch(…, in context:) }` in Core Data apps).
package final class Book: ManagedObject {
    package let isbn: String
    package let title: String

    package init(isbn: String, title: String) {
        self.isbn = isbn
        self.title = title
        super.init()
    }

    override package class var entityName: String { "shelf_book" }

    /// The book with this ISBN.
    package static func fetch(isbn: String, in context: ManagedContext) -> Book? {
        guard let title = try? String.fetchOne(
            context.database, sql: "SELECT title FROM shelf_book WHERE isbn = ?", arguments: [isbn])
        else { return nil }
        return Book(isbn: isbn, title: title)
    }

    /// Inserts a book and returns it.
    @discardableResult
    package static func insert(isbn: String, title: String, into context: ManagedContext) throws -> Book {
        try context.database.execute(
            sql: "INSERT INTO shelf_book (isbn, title) VALUES (?, ?)", arguments: [isbn, title])
        return Book(isbn: isbn, title: title)
    }

    /// How many books there are.
    package static func count(in context: ManagedContext) -> Int {
        (try? Int.fetchOne(context.database, sql: "SELECT COUNT(*) FROM shelf_book")) ?? 0
    }
}
