import TransactionKit

/// The integers of ``AsyncIntStore`` in the database's `KeyValueStore`.
package struct KeyValueIntStore: AsyncIntStore {
    package init() {}

    package func getInt(_ key: String, in collection: String, transaction: DBReadTransaction) async throws -> Int? {
        try KeyValueStore(collection: collection).getInt(key, transaction: transaction)
    }

    package func setInt(_ value: Int, key: String, in collection: String, transaction: DBWriteTransaction) async throws {
        try KeyValueStore(collection: collection).setInt(value, key: key, transaction: transaction)
    }

    package func removeValue(forKey key: String, in collection: String, transaction: DBWriteTransaction) async throws {
        try KeyValueStore(collection: collection).removeValue(forKey: key, transaction: transaction)
    }

    package func removeAll(in collection: String, transaction: DBWriteTransaction) async throws {
        try KeyValueStore(collection: collection).removeAll(transaction: transaction)
    }

    package func allKeys(in collection: String, transaction: DBReadTransaction) async throws -> [String] {
        try KeyValueStore(collection: collection).allKeys(transaction: transaction)
    }

    package func count(in collection: String, transaction: DBReadTransaction) async throws -> Int {
        try KeyValueStore(collection: collection).count(transaction: transaction)
    }
}
