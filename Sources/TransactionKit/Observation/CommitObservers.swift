/// The commit observers of one ``DB`` (held by its ``DatabaseScope``), and
/// their delivery.
///
/// ``notify(_:)`` runs after each successful commit, while the backend
/// still serializes writes, so deliveries are enqueued (on a serial queue,
/// or into an `AsyncStream`'s buffer) in commit order. No observer code runs
/// under that serialization: a callback runs later, on its queue.
///
/// A backend that pays per statement to learn what changed does so only
/// while observers exist: it sets an ``Activation`` (``activate(_:)``),
/// which hears each registration before ``add(tables:collections:all:finish:deliver:)``
/// returns, and the removal of the last observer.
package final class CommitObservers: InlineAtomicWords, Sendable {
    // First stored property: `entryCount`, inline (one allocation fewer per
    // database). Only `atomicWord(_:)` touches it.
    nonisolated(unsafe) private var storage = 0

    /// What a backend does when observers come and go. Both calls run on
    /// the thread that adds or removes, outside the registry's lock.
    package struct Activation: Sendable {
        /// After an observer is registered, before its registration
        /// returns: from then on, the backend must see every commit's
        /// changes (it may block until it does).
        package var observerAdded: @Sendable () -> Void
        /// After the last observer was removed: the backend may stop
        /// tracking changes (it should not block).
        package var lastObserverRemoved: @Sendable () -> Void

        package init(observerAdded: @escaping @Sendable () -> Void, lastObserverRemoved: @escaping @Sendable () -> Void) {
            self.observerAdded = observerAdded
            self.lastObserverRemoved = lastObserverRemoved
        }
    }

    struct Entry {
        /// Tables by their ASCII-lowercased name (SQLite's table names are
        /// case-insensitive in ASCII), each to the observer's spellings: an
        /// observer that names a table twice, in two cases, hears both
        /// names (keeping one would pick it by `Set` order, which differs
        /// from one set to the next).
        let tables: [String: Set<String>]
        let collections: Set<String>
        /// Hears every commit that changed something, with all its changes
        /// (value observation).
        let all: Bool
        /// Hears every commit, with all its changes, even none (an
        /// observer that named no table and no collection).
        let everyCommit: Bool
        let deliver: @Sendable (DBChanges) -> Void
        /// Ends an `AsyncStream` when the database goes away.
        let finish: (@Sendable () -> Void)?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var activation: Activation?
    }

    private let state = LockedValue(State())
    /// The number of entries, readable without the lock: a commit with no
    /// observer costs one atomic load.
    private var entryCount: AtomicWord { atomicWord(0) }

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

    /// Whether any observer is registered, read under the registry's lock:
    /// a registration that returned before this call is seen.
    package var hasObservers: Bool {
        state.withLock { !$0.entries.isEmpty }
    }

    /// Sets what the backend does when observers come and go (once, before
    /// the database is shared).
    package func activate(_ activation: Activation) {
        state.withLock { $0.activation = activation }
    }

    func add(
        tables: Set<String>,
        collections: Set<String>,
        all: Bool = false,
        everyCommit: Bool = false,
        finish: (@Sendable () -> Void)? = nil,
        deliver: @escaping @Sendable (DBChanges) -> Void
    ) -> Int {
        var byLowercasedName: [String: Set<String>] = [:]
        for table in tables {
            byLowercasedName[Self.asciiLowercased(table), default: []].insert(table)
        }
        let entry = Entry(
            tables: byLowercasedName, collections: collections, all: all, everyCommit: everyCommit, deliver: deliver,
            finish: finish)
        let (id, activation) = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = entry
            entryCount.store(state.entries.count, ordering: .relaxed)
            return (state.nextID, state.activation)
        }
        activation?.observerAdded()
        return id
    }

    func remove(_ id: Int) {
        let emptied = state.withLock { state -> Activation? in
            guard state.entries.removeValue(forKey: id) != nil else { return nil }
            entryCount.store(state.entries.count, ordering: .relaxed)
            return state.entries.isEmpty ? state.activation : nil
        }
        emptied?.lastObserverRemoved()
    }

    /// Tells every interested observer about one commit's changes. Called
    /// while the backend still serializes writes.
    package func notify(_ changes: DBChanges) {
        guard !isEmpty else { return }
        let current = state.withLock { $0.entries.sorted { $0.key < $1.key }.map(\.value) }
        if changes.isEmpty {
            for entry in current where entry.everyCommit {
                entry.deliver(changes)
            }
            return
        }
        var lowercasedTables: Set<String>?
        for entry in current {
            if entry.all || entry.everyCommit {
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
