import Messaging
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting

// snippet:begin test-database-helper
/// Where the example's integration tests get their databases.
enum TestDatabases {
    /// The example's schema, migrated once per test process, lazily, the
    /// first time a test asks for a database.
    static let messaging = SQLiteTemplate(migrator: MessagingSchema.migrator)

    /// The same schema with two users that many tests need. The fixtures
    /// block runs once, in one write transaction, through the app's own
    /// wiring; every copy starts with these rows.
    static let withAliceAndBob = SQLiteTemplate(migrator: MessagingSchema.migrator) { tx in
        let users = AccountManager.Wrappers.LegacyUserFinder()
        _ = try users.insertUser(named: "Alice", tx)
        _ = try users.insertUser(named: "Bob", tx)
    }

    /// A fresh, private, migrated in-memory database.
    ///
    /// Every integration test calls this one function: it copies the
    /// migrated template instead of running the migrations again.
    static func makeMigrated() throws -> SQLiteDB {
        try messaging.makeDatabase()
    }
}
// snippet:end test-database-helper
