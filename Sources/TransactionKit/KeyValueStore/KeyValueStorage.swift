/// What a backend provides to ``KeyValueStore``: the storage behind the
/// store, reached through a transaction.
///
/// Each ``DB`` implementation gives its ``DatabaseScope`` one storage
/// (`SQLiteDB`: a table; `MockDB`: in-memory dictionaries), and
/// ``KeyValueStore`` finds it through `transaction.scope`, so that the core
/// never knows GRDB. The store has checked that the transaction is active
/// on this thread before it calls any of these methods, and it records the
/// changed collection for commit observers itself.
///
/// Semantics every implementation keeps (the behaviour suite checks them):
/// a write is visible to later reads of its own transaction at once, to
/// other transactions only once its transaction commits, and never after a
/// rollback; every read of one transaction sees one snapshot. Keys and
/// collections compare by their UTF-8 bytes (SQLite's `BINARY` collation),
/// not by Unicode canonical equivalence.
package protocol KeyValueStorage: Sendable {
    /// The value for `key`, or `nil`.
    func value(forKey key: String, in collection: String, _ transaction: DBReadTransaction) throws -> KeyValueStore.Value?

    /// Inserts or replaces the value for `key`.
    func setValue(
        _ value: KeyValueStore.Value, forKey key: String, in collection: String, _ transaction: DBWriteTransaction
    ) throws

    /// Removes the value for `key`; returns whether there was one.
    func removeValue(forKey key: String, in collection: String, _ transaction: DBWriteTransaction) throws -> Bool

    /// Removes every value of `collection`; returns how many there were.
    func removeAll(in collection: String, _ transaction: DBWriteTransaction) throws -> Int

    /// The keys of `collection`, sorted by their UTF-8 bytes.
    func keys(in collection: String, _ transaction: DBReadTransaction) throws -> [String]

    /// The number of keys in `collection`.
    func count(in collection: String, _ transaction: DBReadTransaction) throws -> Int
}
