import GRDB

/// The tables the fixture's legacy types read and write.
package enum FixtureSchema {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE counter (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                """)
        }
        return migrator
    }
}
