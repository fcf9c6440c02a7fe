/// The commit observers of one ``DB`` (held by its ``DatabaseScope``), and
/// their delivery.
///
/// ``notify(_:)`` runs after each successful commit, while the backend
/// still serializes writes, so deliveries are enqueued (on a serial queue,
/// or into an `AsyncStream`'s buffer) in commit order. No observer code runs
/// under that serialization: a callback runs later, on its queue.
package final class CommitObservers: Sendable {
    struct Entry {
        /// Tables by their ASCII-lowercased name (SQLite's table names are
        /// case-insensitive in ASCII), each to the observer's spellings: an
        /// observer that names a table twice, in two cases, hears both
        /// names (keeping one would pick it by `Set` order, which differs
        /// from one set to the next).
        let tables: [String: Set<String>]
        let collections: Set<String>
        /// Hears every commit, with all its changes (value observation).
        let all: Bool
        let deliver: @Sendable (DBChanges) -> Void
        /// Ends an `AsyncStream` when the database goes away.
        let finish: (@Sendable () -> Void)?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
    }

    private let state = LockedValue(State())
    /// The number of entries, readable without the lock: a commit with no
    /// observer costs one atomic load.
    private let entryCount = AtomicInt(0)

    package init() {}

    deinit {
        for entry in state.withLock({ $0.entries.values }) {
            entry.finish?()
        }
    }

    /// Whether any observer is registered.
    package var isEmpty: Bool {
        entryCount.load(ordering: .relaxed) == 0
    }

    /// The number of registered observers.
    package var count: Int {
        entryCount.load(ordering: .relaxed)
    }

    func add(
        tables: Set<String>,
        collections: Set<String>,
        all: Bool = false,
        finish: (@Sendable () -> Void)? = nil,
        deliver: @escaping @Sendable (DBChanges) -> Void
    ) -> Int {
        var byLowercasedName: [String: Set<String>] = [:]
        for table in tables {
            byLowercasedName[Self.asciiLowercased(table), default: []].insert(table)
        }
        let entry = Entry(tables: byLowercasedName, collections: collections, all: all, deliver: deliver, finish: finish)
        return state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = entry
            entryCount.store(state.entries.count, ordering: .relaxed)
            return state.nextID
        }
    }

    func remove(_ id: Int) {
        state.withLock { state in
            state.entries[id] = nil
            entryCount.store(state.entries.count, ordering: .relaxed)
        }
    }

    /// Tells every interested observer about one commit's changes. Called
    /// while the backend still serializes writes.
    package func notify(_ changes: DBChanges) {
        guard !changes.isEmpty, !isEmpty else { return }
        let current = state.withLock { $0.entries.sorted { $0.key < $1.key }.map(\.value) }
        var lowercasedTables: Set<String>?
        for entry in current {
            if entry.all {
                entry.deliver(changes)
                continue
            }
            var matched = DBChanges()
            if !entry.tables.isEmpty, !changes.tables.isEmpty {
                let changed = lowercasedTables ?? Set(changes.tables.map(Self.asciiLowercased))
                lowercasedTables = changed
                for (lowercased, spellings) in entry.tables where changed.contains(lowercased) {
                    matched.tables.formUnion(spellings)
                }
            }
            if !entry.collections.isEmpty {
                matched.keyValueCollections = entry.collections.intersection(changes.keyValueCollections)
            }
            if !matched.isEmpty {
                entry.deliver(matched)
            }
        }
    }

    static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
