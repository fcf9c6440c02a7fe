import GRDB

/// The superclass of every entity (Core Data's `NSManagedObject`), with the
/// members all entities share.
package class ManagedObject {
    /// The entity's table.
    package class var entityName: String { fatalError("entities name their table") }

    package init() {}

    /// Deletes every object of the entity (a batch delete request).
    package class func deleteAll(in context: ManagedContext) throws {
        try context.database.execute(sql: "DELETE FROM \(entityName)")
    }
}
