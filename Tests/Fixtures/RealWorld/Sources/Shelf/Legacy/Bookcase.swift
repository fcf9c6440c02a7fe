import GRDB

/// A named bookcase.
package final class Bookcase: ManagedObject {
    override package class var entityName: String { "shelf_bookcase" }

    /// Creates a bookcase.
    package static func create(name: String, in context: ManagedContext) throws {
        try context.database.execute(sql: "INSERT OR IGNORE INTO shelf_bookcase (name) VALUES (?)", arguments: [name])
    }
}
