import TransactionKit

/// The storage behind `KeyValueStore` on a ``MockDB``: dictionaries owned by
/// one `MockDB`, with SQLite's transaction semantics.
///
/// - **Committed values** live in ``committed``, behind a lock. Only a
///   commit (and seeding) changes them, and both happen while MockDB's
///   write lock is held, so a commit applies all of a transaction's writes
///   at once, before the next writer can begin.
/// - **The write transaction** stages its changes (``staged``): per
///   collection, a ``MockKeyValueChanges`` with the values it set, the keys
///   it removed, and whether it removed them all. Its reads overlay them on
///   the committed values. Writers are serialized by the write lock, so
///   there is at most one staging, and only the holder of the write lock
///   (a thread, or the task of an async write, on whatever thread it
///   resumes) touches it (no lock of its own). The backend applies it to the
///   committed values (``commit()``), in place, or drops it
///   (``discard()``): a write costs O(its changes), whatever the size of
///   the collections.
/// - **A read transaction** takes a snapshot of the committed values at its
///   first store call and keeps it in the transaction
///   (`storageContext`): every later read of that transaction sees the same
///   values, whatever commits meanwhile. Copy-on-write makes a snapshot cost
///   one retain; a commit while a snapshot is alive copies the dictionaries
///   it changes (the outer one, and each collection it writes) instead of
///   mutating them in place, so the snapshot never sees it.
///
/// Keys and collections compare by their UTF-8 bytes, as SQLite's `BINARY`
/// collation does, not by Swift's canonical equivalence.
final class MockKeyValueStorage: KeyValueStorage, @unchecked Sendable {
    /// A string that compares by its UTF-8 bytes.
    struct BinaryKey: Hashable {
        let string: String

        static func == (lhs: BinaryKey, rhs: BinaryKey) -> Bool {
            lhs.string.utf8.elementsEqual(rhs.string.utf8)
        }

        func hash(into hasher: inout Hasher) {
            for byte in string.utf8 {
                hasher.combine(byte)
            }
        }
    }

    typealias Collection = [BinaryKey: KeyValueStore.Value]
    typealias Collections = [BinaryKey: Collection]

    /// A read transaction's snapshot.
    final class Snapshot {
        let collections: Collections
        init(_ collections: Collections) { self.collections = collections }
    }

    /// Changed only under MockDB's write lock.
    private let committed: LockedValue<Collections>
    /// The write transaction's changes, by collection; only the holder of
    /// MockDB's write lock touches them.
    var staged: [BinaryKey: MockKeyValueChanges] = [:]
    /// The staged changes as each open savepoint found them, innermost
    /// last (see MockKeyValueStorage+Savepoints.swift); only the holder of
    /// MockDB's write lock touches them.
    var savepointMarks: [[BinaryKey: MockKeyValueChanges]] = []

    init(seed: [String: [String: KeyValueStore.Value]]) {
        var collections: Collections = [:]
        for (collection, values) in seed {
            Self.merge(values, into: &collections, collection: collection)
        }
        committed = LockedValue(collections)
    }

    // MARK: - KeyValueStorage

    func value(forKey key: String, in collection: String, _ transaction: DBReadTransaction) throws -> KeyValueStore.Value? {
        let name = BinaryKey(string: collection)
        let key = BinaryKey(string: key)
        guard transaction.kind == .write else {
            return snapshot(for: transaction).collections[name]?[key]
        }
        if case let .staged(value)? = staged[name]?.lookup(key) {
            return value
        }
        return committed.withLock { $0[name]?[key] }
    }

    func setValue(
        _ value: KeyValueStore.Value, forKey key: String, in collection: String, _ transaction: DBWriteTransaction
    ) throws {
        staged[BinaryKey(string: collection), default: MockKeyValueChanges()]
            .setValue(value, forKey: BinaryKey(string: key))
    }

    func removeValue(forKey key: String, in collection: String, _ transaction: DBWriteTransaction) throws -> Bool {
        let name = BinaryKey(string: collection)
        let key = BinaryKey(string: key)
        let isCommitted = staged[name]?.isCleared == true
            ? false
            : committed.withLock { $0[name]?[key] != nil }
        return staged[name, default: MockKeyValueChanges()].removeValue(forKey: key, isCommitted: isCommitted)
    }

    func removeAll(in collection: String, _ transaction: DBWriteTransaction) throws -> Int {
        let removed = try count(in: collection, transaction)
        staged[BinaryKey(string: collection), default: MockKeyValueChanges()].removeAll()
        return removed
    }

    func keys(in collection: String, _ transaction: DBReadTransaction) throws -> [String] {
        let name = BinaryKey(string: collection)
        let keys: [BinaryKey]
        if transaction.kind == .write {
            let committedValues = committed.withLock { $0[name] }
            keys = staged[name].map { $0.keys(over: committedValues) } ?? committedValues.map { Array($0.keys) } ?? []
        } else {
            keys = snapshot(for: transaction).collections[name].map { Array($0.keys) } ?? []
        }
        return keys.map(\.string).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    func count(in collection: String, _ transaction: DBReadTransaction) throws -> Int {
        let name = BinaryKey(string: collection)
        guard transaction.kind == .write else {
            return snapshot(for: transaction).collections[name]?.count ?? 0
        }
        let committedValues = committed.withLock { $0[name] }
        return staged[name].map { $0.count(over: committedValues) } ?? committedValues?.count ?? 0
    }

    // MARK: - Transactions (called by MockBackend under the write lock)

    /// Applies the write transaction's changes to the committed values, in
    /// place unless a read transaction's snapshot still references them
    /// (copy-on-write then copies what changes, and the snapshot keeps the
    /// old values).
    func commit() {
        savepointMarks = []
        guard !staged.isEmpty else { return }
        let changes = staged
        staged = [:]
        committed.withLock { committed in
            for (name, collectionChanges) in changes {
                collectionChanges.apply(to: &committed[name])
            }
        }
    }

    /// Drops the write transaction's changes.
    func discard() {
        staged = [:]
        savepointMarks = []
    }

    // MARK: - Seeding and inspection (MockDB takes the write lock first)

    /// Sets `values` in `collection` as if a transaction had committed them.
    func seed(_ values: [String: KeyValueStore.Value], in collection: String) {
        committed.withLock { committed in
            Self.merge(values, into: &committed, collection: collection)
        }
    }

    /// The committed values of `collection`.
    func committedValues(in collection: String) -> [String: KeyValueStore.Value] {
        let values = committed.withLock { $0[BinaryKey(string: collection)] } ?? [:]
        return Dictionary(values.map { ($0.key.string, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The collections that hold at least one committed value.
    func committedCollections() -> [String] {
        committed.withLock { $0.keys.map(\.string) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    // MARK: - Private

    /// A read transaction's snapshot of the committed values, taken at its
    /// first store call and kept in the transaction.
    private func snapshot(for transaction: DBReadTransaction) -> Snapshot {
        if let snapshot = transaction.storageContext as? Snapshot {
            return snapshot
        }
        let snapshot = Snapshot(committed.withLock { $0 })
        transaction.storageContext = snapshot
        return snapshot
    }

    private static func merge(
        _ values: [String: KeyValueStore.Value], into collections: inout Collections, collection: String
    ) {
        guard !values.isEmpty else { return }
        let name = BinaryKey(string: collection)
        for (key, value) in values {
            collections[name, default: [:]][BinaryKey(string: key)] = value
        }
    }
}
