import Messaging
import TransactionKitSQLite

// snippet:begin test-database-helper
/// Where the example's integration tests get their databases.
enum TestDatabases {
    /// A fresh, private, migrated in-memory database.
    ///
    /// Every integration test calls this one function, so that switching to
    /// faster template-cloned databases is a change in one place.
    static func makeMigrated() throws -> SQLiteDB {
        try SQLiteDB.inMemory(migrator: MessagingSchema.migrator)
    }
}
// snippet:end test-database-helper
