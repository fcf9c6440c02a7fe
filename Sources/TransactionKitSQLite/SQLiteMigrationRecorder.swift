import GRDB
import TransactionKit

/// Records the rows that committed transactions of the connection it
/// observes inserted into `grdb_migrations`: the migrations that this
/// connection applied, as opposed to those another process applied
/// meanwhile.
final class SQLiteMigrationRecorder: TransactionObserver, Sendable {
    private struct State {
        var pending: [Int64] = []
        var committed: [Int64] = []
    }

    private let state = LockedValue(State())

    /// The row ids of `grdb_migrations` inserted by committed transactions,
    /// in order.
    var committedRowIDs: [Int64] {
        state.withLock { $0.committed }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .insert(let tableName) = eventKind {
            return tableName == "grdb_migrations"
        }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let rowID = event.rowID
        state.withLock { $0.pending.append(rowID) }
    }

    func databaseDidCommit(_ db: Database) {
        state.withLock { state in
            state.committed += state.pending
            state.pending = []
        }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLock { $0.pending = [] }
    }
}
