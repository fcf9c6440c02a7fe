import GRDB
import TransactionKit

/// The writer connection's GRDB transaction observer: it collects the tables
/// each transaction on the writer changes, for commit observers and live
/// values.
///
/// **Only while someone observes:** ``SQLiteChangeTracking`` installs it on
/// the writer when the first commit observer or live value registers, and
/// removes it after the last one goes: a database nobody observes runs no
/// GRDB observation around its statements. Installed, it costs what any
/// GRDB transaction observer costs: GRDB's broker around each statement, and
/// SQLite's update hook for each row changed (deleting all rows of a table
/// then deletes them one by one: GRDB turns off SQLite's truncate
/// optimization for observed tables).
///
/// **Every commit on the writer:** TransactionKit's own writes (the backend
/// takes the tables after its `COMMIT`, ``take()``), bridged transactions
/// (handed to the bridge at the commit hook), and every other commit: on an
/// adopted pool or queue, the application's own legacy writes, told to the
/// commit observers here, still on the writer's queue, in commit order.
///
/// The key-value table is not reported as a table:
/// ``/TransactionKit/KeyValueStore`` reports its collections itself. GRDB
/// notifies inserts, updates and deletes in rowid tables; changes it cannot
/// see (`WITHOUT ROWID` tables) are reported only when declared with
/// `declareChange(table:)`.
///
/// Only the writer connection's queue touches the state: the observer's
/// callbacks and ``SQLiteBackend``'s calls all run inside write accesses,
/// one after the other, and no access to a field spans a call. The fields'
/// runtime exclusivity checks are therefore off: the backend touches them
/// several times in every write, observed or not (`empty_write_tx`).
final class SQLiteChangeTracker: TransactionObserver, @unchecked Sendable {
    private let observers: CommitObservers
    private let bridges: SQLiteBridges
    @exclusivity(unchecked) private var tables: Set<String> = []

    /// Set by the backend while one of its own write transactions runs.
    @exclusivity(unchecked) private(set) var isInOwnTransaction = false
    /// Set by the backend just before it runs its `COMMIT`.
    @exclusivity(unchecked) var isCommitExpected = false

    init(observers: CommitObservers, bridges: SQLiteBridges) {
        self.observers = observers
        self.bridges = bridges
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        // Between the last observer's removal and the tracker's, nothing
        // needs the rows.
        !observers.isEmpty && eventKind.tableName != SQLiteKeyValueStorage.tableName
    }

    func databaseDidChange(with event: DatabaseEvent) {
        tables.insert(event.tableName)
    }

    func databaseWillCommit() throws {
        // A bridged transaction reports its commit itself, with all the
        // tables its application transaction changed, before or after it
        // was bridged.
        if !isInOwnTransaction, !tables.isEmpty, let bridge = bridges.write {
            bridge.detected.formUnion(tables)
            tables.removeAll()
        }
    }

    func databaseDidCommit(_ db: Database) {
        if isInOwnTransaction && isCommitExpected {
            return  // the backend takes the tables
        }
        // The application's own transaction, a statement outside any
        // transaction, or a COMMIT that a block of the backend ran itself:
        // a commit all the same, which observers hear now.
        let changed = tables
        tables.removeAll()
        if !changed.isEmpty {
            observers.notify(DBChanges(tables: changed))
        }
    }

    func databaseDidRollback(_ db: Database) {
        tables.removeAll()
    }

    /// Called by the backend before its `BEGIN`.
    func beginOwnTransaction() {
        tables.removeAll()
        isInOwnTransaction = true
        isCommitExpected = false
    }

    /// Called by the backend when its transaction ended, committed or not.
    func endOwnTransaction() {
        isInOwnTransaction = false
        isCommitExpected = false
    }

    /// Forgets the changes seen so far (a rolled-back transaction's).
    func reset() {
        tables.removeAll()
    }

    /// The tables changed since the last reset, and a reset.
    func take() -> Set<String> {
        defer { tables.removeAll() }
        return tables
    }
}
