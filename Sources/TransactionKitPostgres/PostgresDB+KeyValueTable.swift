#if Postgres
import PostgresNIO
import TransactionKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension PostgresDB {
    /// Creates the key-value table (``Configuration/keyValueTable``) when it
    /// is missing, in a write transaction of its own.
    ///
    /// Two processes opening one new database at once may both try: the
    /// one whose creation fails finds the other's table and goes on. A role
    /// without the right to create tables opens anyway; its first
    /// `KeyValueStore` call fails then.
    ///
    /// - Throws: ``/TransactionKit/DBError`` when the server cannot be
    ///   reached or the creation fails for another reason.
    func prepareKeyValueTable() async throws {
        let create = PostgresQuery(unsafeSQL: PostgresKeyValueStorage.createTableSQL(configuration.keyValueTable))
        do {
            try await write { tx in _ = try await PostgresDB.shimOnlyBridge(tx).query(create) }
        } catch let error as DBError where error.sqlState == "42501" {
            // insufficient_privilege: a role that may not create tables.
        } catch let error as DBError where error.sqlState == "23505" || error.sqlState == "42P07" {
            // Another process created the table at the same moment.
        } catch let violation as DBConstraintViolation where violation.kind == .unique {
            // The same race, reported as a unique violation of the catalog.
        }
    }
}
#endif
