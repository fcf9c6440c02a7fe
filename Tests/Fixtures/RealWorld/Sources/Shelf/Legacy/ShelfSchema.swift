import GRDB

/// The reading app's tables (Core Data's model, as SQL).
package enum ShelfSchema {
    /// A migrator with the app's migrations.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        register(in: &migrator)
        return migrator
    }

    /// Registers the app's migrations.
    package static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("shelf-v1") { db in
            try db.execute(sql: """
                CREATE TABLE shelf_book (isbn TEXT PRIMARY KEY, title TEXT NOT NULL);
                CREATE TABLE shelf_bookcase (name TEXT PRIMARY KEY);
                CREATE TABLE shelf_placement (isbn TEXT NOT NULL, bookcase TEXT NOT NULL);
                CREATE TABLE shelf_tag (isbn TEXT NOT NULL, name TEXT NOT NULL);
                CREATE TABLE shelf_loan (isbn TEXT PRIMARY KEY, member TEXT NOT NULL, due INTEGER NOT NULL);
                CREATE TABLE shelf_session (isbn TEXT NOT NULL, minutes INTEGER NOT NULL, day INTEGER NOT NULL);
                """)
        }
    }
}
