import TransactionKit

/// What the running write transaction of a ``MockDB`` did to one collection
/// of its key-value storage, not committed yet: the values it set, the
/// committed keys it removed, and whether it removed the whole collection.
///
/// ``MockKeyValueStorage`` keeps one per collection the transaction wrote,
/// overlays it on the committed values for the transaction's own reads, and
/// applies it to the committed values at commit, in place: a write costs
/// O(its changes), never a copy of the collection.
///
/// Invariants: a key is in ``setValues`` or in ``removedKeys``, never in
/// both; ``removedKeys`` holds only keys that have a committed value, and is
/// empty when ``isCleared``. The committed values do not change while the
/// transaction runs (commits and seeds wait for MockDB's write lock, which
/// the transaction holds), so the invariants hold until the commit.
struct MockKeyValueChanges {
    typealias Key = MockKeyValueStorage.BinaryKey
    typealias Collection = MockKeyValueStorage.Collection

    /// How the changes answer a read of one key.
    enum Lookup {
        /// The transaction set or removed the key: this is its value.
        case staged(KeyValueStore.Value?)
        /// The transaction did not touch the key: read the committed value.
        case committed
    }

    /// Whether the transaction removed every committed value of the
    /// collection; ``setValues`` holds what it set afterwards.
    private(set) var isCleared = false
    /// The values the transaction set, by key; they hide committed ones.
    private(set) var setValues: Collection = [:]
    /// Committed keys the transaction removed.
    private(set) var removedKeys: Set<Key> = []

    // MARK: - Reads, overlaid on the committed values

    func lookup(_ key: Key) -> Lookup {
        if let value = setValues[key] {
            return .staged(value)
        }
        if isCleared || removedKeys.contains(key) {
            return .staged(nil)
        }
        return .committed
    }

    /// The number of keys once the changes are applied to `committed`.
    func count(over committed: Collection?) -> Int {
        if isCleared {
            return setValues.count
        }
        guard let committed else { return setValues.count }
        var added = 0
        for key in setValues.keys where committed[key] == nil {
            added += 1
        }
        return committed.count - removedKeys.count + added
    }

    /// The keys once the changes are applied to `committed`, unsorted.
    func keys(over committed: Collection?) -> [Key] {
        var keys = Array(setValues.keys)
        if !isCleared, let committed {
            for key in committed.keys where setValues[key] == nil && !removedKeys.contains(key) {
                keys.append(key)
            }
        }
        return keys
    }

    // MARK: - Writes

    mutating func setValue(_ value: KeyValueStore.Value, forKey key: Key) {
        setValues[key] = value
        if !removedKeys.isEmpty {
            removedKeys.remove(key)
        }
    }

    /// Removes the value of `key`; returns whether there was one.
    ///
    /// - Parameter isCommitted: Whether `key` has a committed value.
    mutating func removeValue(forKey key: Key, isCommitted: Bool) -> Bool {
        let wasSet = setValues.removeValue(forKey: key) != nil
        guard !isCleared, isCommitted else { return wasSet }
        return removedKeys.insert(key).inserted || wasSet
    }

    /// Removes every value, committed or set by the transaction.
    mutating func removeAll() {
        isCleared = true
        setValues = [:]
        removedKeys = []
    }

    // MARK: - Commit

    /// Applies the changes to the committed values of the collection, in
    /// place when nothing else references them (no read transaction's
    /// snapshot does): a collection left empty becomes `nil`, so that empty
    /// collections disappear, as they do from SQLite's table.
    func apply(to collection: inout Collection?) {
        if isCleared {
            collection = setValues.isEmpty ? nil : setValues
            return
        }
        for key in removedKeys {
            collection?.removeValue(forKey: key)
        }
        if collection == nil {
            collection = setValues.isEmpty ? nil : setValues
            return
        }
        for (key, value) in setValues {
            collection?[key] = value
        }
        if collection?.isEmpty == true {
            collection = nil
        }
    }
}
