import TransactionKitPostgres

/// The async slice's schema on PostgreSQL, as a `PostgresMigrator`.
///
/// ```swift
/// let db = try await PostgresDB.open(PostgresDB.Configuration(url: url))
/// try await MessagingPostgresSchema.migrator.migrate(db)
/// ```
///
/// Four tables, as in ``MessagingSchema``: `app_user` (`user` is a reserved
/// word in PostgreSQL), `conversation`, `membership` and `message`. User
/// names are unique regardless of case (a unique index on `lower(name)`);
/// memberships and messages reference their user and conversation, so the
/// server refuses a member or sender that does not exist.
///
/// **Transaction semantics:** each migration runs in its own transaction;
/// `migrate` holds an advisory lock, so instances of a service that start
/// together apply each migration once.
public enum MessagingPostgresSchema {
    /// The migrations, in order. Append new ones; never edit a shipped one.
    public static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator()
        // snippet:begin postgres-schema-v1
        migrator.registerMigration("v1: users, conversations and messages") { connection, logger in
            try await connection.query("""
                CREATE TABLE app_user (
                    id BIGSERIAL PRIMARY KEY,
                    name TEXT NOT NULL,
                    is_blocked BOOLEAN NOT NULL DEFAULT false)
                """, logger: logger)
            try await connection.query(
                "CREATE UNIQUE INDEX app_user_name_key ON app_user (lower(name))", logger: logger)
            try await connection.query("""
                CREATE TABLE conversation (
                    id BIGSERIAL PRIMARY KEY,
                    title TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    last_message_at TIMESTAMPTZ)
                """, logger: logger)
            try await connection.query("""
                CREATE TABLE membership (
                    conversation_id BIGINT NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
                    user_id BIGINT NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
                    last_read_message_id BIGINT,
                    PRIMARY KEY (conversation_id, user_id))
                """, logger: logger)
            try await connection.query("""
                CREATE TABLE message (
                    id BIGSERIAL PRIMARY KEY,
                    conversation_id BIGINT NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
                    sender_id BIGINT NOT NULL REFERENCES app_user (id),
                    body TEXT NOT NULL,
                    sent_at TIMESTAMPTZ NOT NULL)
                """, logger: logger)
            try await connection.query(
                "CREATE INDEX message_by_conversation ON message (conversation_id, id)", logger: logger)
        }
        // snippet:end postgres-schema-v1
        return migrator
    }
}
