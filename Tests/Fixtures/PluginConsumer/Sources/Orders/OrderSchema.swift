import GRDB

/// The orders table.
public enum OrderSchema {
    /// Creates the table.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orders") { db in
            try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT NOT NULL)")
        }
        return migrator
    }
}
