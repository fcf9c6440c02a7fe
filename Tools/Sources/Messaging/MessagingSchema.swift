import GRDB

/// The messaging app's database schema, as a GRDB migrator.
///
/// ```swift
/// let db = try SQLiteDB(path: "messaging.sqlite", migrator: MessagingSchema.migrator)
/// ```
///
/// Four tables: `user`, `conversation`, `membership` (who is in which
/// conversation, and how far they have read) and `message`.
///
/// **Transaction semantics:** each migration runs in its own transaction when
/// `SQLiteDB` opens the database; a database already migrated is left as is.
public enum MessagingSchema {
    /// The migrations, in order. Append new ones; never edit a shipped one.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // snippet:begin schema-v1
        migrator.registerMigration("v1: users and conversations") { db in
            try db.execute(sql: """
                CREATE TABLE user (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    isBlocked BOOLEAN NOT NULL DEFAULT 0
                );
                CREATE TABLE conversation (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    createdAt DATETIME NOT NULL,
                    lastMessageAt DATETIME
                );
                CREATE TABLE membership (
                    conversationID INTEGER NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                    userID INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    lastReadMessageID INTEGER,
                    PRIMARY KEY (conversationID, userID)
                );
                """)
        }
        // snippet:end schema-v1
        migrator.registerMigration("v2: messages") { db in
            try db.execute(sql: """
                CREATE TABLE message (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    conversationID INTEGER NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
                    senderID INTEGER NOT NULL REFERENCES user(id),
                    body TEXT NOT NULL,
                    sentAt DATETIME NOT NULL
                );
                CREATE INDEX message_by_conversation ON message(conversationID, id);
                """)
        }
        return migrator
    }
}
