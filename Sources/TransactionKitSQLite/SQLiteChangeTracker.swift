import GRDB
import TransactionKit

/// The writer connection's GRDB transaction observer: it collects the tables
/// a write transaction changed, for commit observers, and refuses every
/// commit that TransactionKit did not ask for while one of its write
/// transactions is open.
///
/// **Changed tables:** it watches only while someone observes commits
/// (`observes(eventsOfKind:)` is asked for each statement that runs), so a
/// database nobody observes pays nothing per row, and SQLite's truncate
/// optimization stays on. The key-value table is not reported as a table:
/// ``/TransactionKit/KeyValueStore`` reports its collections itself.
/// GRDB notifies inserts, updates and deletes in rowid tables; changes it
/// cannot see (`WITHOUT ROWID` tables) are reported only when declared
/// with `declareChange(table:)`.
///
/// **Stray commits:** ``SQLiteBackend`` begins its write transactions with a
/// prepared `BEGIN IMMEDIATE` of its own, not GRDB's `inTransaction`, so
/// GRDB's check that refuses statements after SQLite rolled a transaction
/// back by itself (after a full disk, an I/O error…) does not apply. This
/// observer takes its place: while ``isGuardingCommits`` is set, SQLite's
/// commit hook asks it about every commit, and it refuses (rolls back, with
/// an error thrown by the statement) all but the backend's own `COMMIT`. A
/// block that swallowed such an error and went on writing therefore commits
/// nothing outside its transaction, and the backend, which finds the
/// transaction gone, fails the write. A `COMMIT` run by the block itself is
/// refused too.
///
/// Only the writer connection's queue touches the state: the observer's
/// callbacks and ``SQLiteBackend``'s calls all run inside one write access.
final class SQLiteChangeTracker: TransactionObserver, @unchecked Sendable {
    private let observers: CommitObservers
    private let path: String
    private var tables: Set<String> = []

    /// Set by the backend while one of its write transactions is open.
    var isGuardingCommits = false
    /// Set by the backend just before it runs its `COMMIT`.
    var isCommitExpected = false

    init(observers: CommitObservers, path: String) {
        self.observers = observers
        self.path = path
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        !observers.isEmpty && eventKind.tableName != SQLiteKeyValueStorage.tableName
    }

    func databaseDidChange(with event: DatabaseEvent) {
        tables.insert(event.tableName)
    }

    func databaseWillCommit() throws {
        if isGuardingCommits && !isCommitExpected {
            throw DBError(
                kind: .other, operation: .write, path: path,
                message: "a statement tried to commit outside the write transaction, and was rolled back: "
                    + "SQLite had already rolled the transaction back after an earlier error that the block "
                    + "did not rethrow, or the block ran COMMIT itself; nothing was committed")
        }
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
