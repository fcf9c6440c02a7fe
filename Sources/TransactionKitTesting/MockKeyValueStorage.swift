import TransactionKit

/// The storage behind `KeyValueStore` on a ``MockDB``: dictionaries owned by
/// one `MockDB`, with SQLite's transaction semantics.
///
/// - **Committed values** live in ``committed``, behind a lock. Only a
///   commit (and seeding) replaces them, and both happen while MockDB's
///   write lock is held, so a commit applies all of a transaction's writes
///   at once, before the next writer can begin.
/// - **The write transaction** works on its own copy (``working``), taken
///   from the committed values at its first store call. Writers are
///   serialized by the write lock, so there is at most one copy, and only
///   the thread that holds the write lock touches it (no lock of its own).
///   The backend commits it (``commit()``) or drops it (``discard()``).
/// - **A read transaction** takes a snapshot of the committed values at its
///   first store call and keeps it in the transaction
///   (`storageContext`): every later read of that transaction sees the same
///   values, whatever commits meanwhile. Copy-on-write makes a snapshot cost
///   one retain.
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

    private let committedLock = MockLock()
    /// Guarded by `committedLock`; replaced only under MockDB's write lock.
    private var committed: Collections = [:]
    /// The write transaction's copy; only the holder of MockDB's write lock
    /// touches it.
    private var working: Collections?

    init(seed: [String: [String: KeyValueStore.Value]]) {
        for (collection, values) in seed {
            Self.merge(values, into: &committed, collection: collection)
        }
    }

    // MARK: - KeyValueStorage

    func value(forKey key: String, in collection: String, _ transaction: DBReadTransaction) throws -> KeyValueStore.Value? {
        readable(transaction)[BinaryKey(string: collection)]?[BinaryKey(string: key)]
    }

    func setValue(
        _ value: KeyValueStore.Value, forKey key: String, in collection: String, _ transaction: DBWriteTransaction
    ) throws {
        var collections = takeWorking()
        collections[BinaryKey(string: collection), default: [:]][BinaryKey(string: key)] = value
        working = collections
    }

    func removeValue(forKey key: String, in collection: String, _ transaction: DBWriteTransaction) throws -> Bool {
        var collections = takeWorking()
        defer { working = collections }
        let name = BinaryKey(string: collection)
        guard collections[name]?.removeValue(forKey: BinaryKey(string: key)) != nil else { return false }
        if collections[name]?.isEmpty == true {
            collections[name] = nil
        }
        return true
    }

    func removeAll(in collection: String, _ transaction: DBWriteTransaction) throws -> Int {
        var collections = takeWorking()
        defer { working = collections }
        return collections.removeValue(forKey: BinaryKey(string: collection))?.count ?? 0
    }

    func keys(in collection: String, _ transaction: DBReadTransaction) throws -> [String] {
        let keys = readable(transaction)[BinaryKey(string: collection)]?.keys.map(\.string) ?? []
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    func count(in collection: String, _ transaction: DBReadTransaction) throws -> Int {
        readable(transaction)[BinaryKey(string: collection)]?.count ?? 0
    }

    // MARK: - Transactions (called by MockBackend under the write lock)

    /// Makes the write transaction's values the committed ones.
    func commit() {
        guard let working else { return }
        self.working = nil
        committedLock.withLock { committed = working }
    }

    /// Drops the write transaction's values.
    func discard() {
        working = nil
    }

    // MARK: - Seeding and inspection (MockDB takes the write lock first)

    /// Sets `values` in `collection` as if a transaction had committed them.
    func seed(_ values: [String: KeyValueStore.Value], in collection: String) {
        committedLock.withLock {
            Self.merge(values, into: &committed, collection: collection)
        }
    }

    /// The committed values of `collection`.
    func committedValues(in collection: String) -> [String: KeyValueStore.Value] {
        let values = committedLock.withLock { committed[BinaryKey(string: collection)] } ?? [:]
        return Dictionary(values.map { ($0.key.string, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The collections that hold at least one committed value.
    func committedCollections() -> [String] {
        committedLock.withLock { committed.keys.map(\.string) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    // MARK: - Private

    private func snapshotOfCommitted() -> Collections {
        committedLock.withLock { committed }
    }

    /// What `transaction` reads: a write transaction its copy (or the
    /// committed values, before its first write), a read transaction its
    /// snapshot.
    private func readable(_ transaction: DBReadTransaction) -> Collections {
        if transaction.kind == .write {
            return working ?? snapshotOfCommitted()
        }
        if let snapshot = transaction.storageContext as? Snapshot {
            return snapshot.collections
        }
        let snapshot = Snapshot(snapshotOfCommitted())
        transaction.storageContext = snapshot
        return snapshot.collections
    }

    /// The write transaction's copy, moved out of `working` so that the
    /// caller mutates a uniquely referenced dictionary (no copy per write);
    /// the caller puts it back.
    private func takeWorking() -> Collections {
        if let collections = working {
            working = nil
            return collections
        }
        return snapshotOfCommitted()
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
