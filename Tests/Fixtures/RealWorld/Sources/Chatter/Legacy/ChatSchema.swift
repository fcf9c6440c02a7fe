import GRDB

/// The messaging app's tables, created by its own migrator.
package enum ChatSchema {
    /// A migrator with the app's migrations.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        register(in: &migrator)
        return migrator
    }

    /// Registers the app's migrations.
    package static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("chatter-v1") { db in
            try db.execute(sql: """
                CREATE TABLE chat_thread (uniqueId TEXT PRIMARY KEY, title TEXT NOT NULL, isArchived INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE chat_message (uniqueId TEXT PRIMARY KEY, threadId TEXT NOT NULL, body TEXT NOT NULL,
                    isRead INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE chat_receipt (messageId TEXT NOT NULL, recipient TEXT NOT NULL, state TEXT NOT NULL);
                CREATE TABLE chat_contact (phone TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE chat_keyvalue (collection TEXT NOT NULL, key TEXT NOT NULL, value TEXT,
                    PRIMARY KEY (collection, key));
                CREATE TABLE chat_thread_data (threadId TEXT PRIMARY KEY, mutedUntil INTEGER NOT NULL DEFAULT 0);
                """)
        }
    }
}
