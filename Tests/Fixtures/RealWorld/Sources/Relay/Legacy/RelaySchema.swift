import GRDB

/// The relay app's tables, created by its own migrator.
package enum RelaySchema {
    /// A migrator with the app's migrations.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        register(in: &migrator)
        return migrator
    }

    /// Registers the app's migrations.
    package static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("relay-v1") { db in
            try db.execute(sql: """
                CREATE TABLE relay_thread (id TEXT PRIMARY KEY, isPinned INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE relay_interaction (id INTEGER PRIMARY KEY AUTOINCREMENT, threadId TEXT NOT NULL,
                    body TEXT NOT NULL, isRead INTEGER NOT NULL DEFAULT 0, sentAt INTEGER);
                CREATE TABLE relay_config (key TEXT PRIMARY KEY, value TEXT);
                CREATE TABLE relay_profile (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE relay_download (attachmentId TEXT PRIMARY KEY);
                CREATE TABLE relay_room (server TEXT NOT NULL, token TEXT NOT NULL, name TEXT NOT NULL,
                    lastPolled INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (server, token));
                """)
        }
    }
}
