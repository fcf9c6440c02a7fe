import TransactionKit

/// Integers by collection and key, read and written inside a transaction:
/// what the async tests store: ``KeyValueIntStore``, the database's
/// `KeyValueStore`, on every database.
package protocol AsyncIntStore: Sendable {
    func getInt(_ key: String, in collection: String, transaction: DBReadTransaction) async throws -> Int?
    func setInt(_ value: Int, key: String, in collection: String, transaction: DBWriteTransaction) async throws
    func removeValue(forKey key: String, in collection: String, transaction: DBWriteTransaction) async throws
    func removeAll(in collection: String, transaction: DBWriteTransaction) async throws
    /// In UTF-8 byte order.
    func allKeys(in collection: String, transaction: DBReadTransaction) async throws -> [String]
    func count(in collection: String, transaction: DBReadTransaction) async throws -> Int
}
