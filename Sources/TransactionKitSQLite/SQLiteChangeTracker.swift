import GRDB
import TransactionKit

/// Collects the tables a write transaction changed, for commit observers:
/// a GRDB transaction observer on the writer connection.
///
/// It watches only while someone observes commits
/// (`observes(eventsOfKind:)` is asked for each statement that runs), so a
/// database nobody observes pays nothing per row, and SQLite's truncate
/// optimization stays on. The key-value table is not reported as a table:
/// ``/TransactionKit/KeyValueStore`` reports its collections itself.
///
/// GRDB notifies inserts, updates and deletes in rowid tables; changes it
/// cannot see (`WITHOUT ROWID` tables) are reported only when declared
/// with `declareChange(table:)`.
///
/// Only the writer connection's queue touches `tables`: the observer's
/// callbacks and ``SQLiteBackend``'s calls all run inside one write access.
final class SQLiteChangeTracker: TransactionObserver, @unchecked Sendable {
    private let observers: CommitObservers
    private var tables: Set<String> = []

    init(observers: CommitObservers) {
        self.observers = observers
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        !observers.isEmpty && eventKind.tableName != SQLiteKeyValueStorage.tableName
    }

    func databaseDidChange(with event: DatabaseEvent) {
        tables.insert(event.tableName)
    }

    func databaseDidCommit(_ db: Database) {}

    func databaseDidRollback(_ db: Database) {
        tables.removeAll()
    }

    /// Forgets changes seen outside a transaction of the engine (a
    /// migration).
    func reset() {
        tables.removeAll()
    }

    /// The tables changed since the last reset, and a reset.
    func take() -> Set<String> {
        defer { tables.removeAll() }
        return tables
    }
}
