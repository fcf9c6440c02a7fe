import GRDB
import TransactionKit

/// The transactions an `SQLiteDB` bridged from transactions the
/// application opened itself (`writeTransaction(bridging:)`,
/// `readTransaction(bridging:)`): the write of the writer's open
/// transaction, so that bridging twice returns the same transaction and its
/// one set of hooks, and the last read bridged on each reader connection.
//
// `@unchecked`: the read transactions it records are not `Sendable`; each is
// used only on its connection, which GRDB serializes.
final class SQLiteBridges: @unchecked Sendable {
    private struct Bridged {
        /// The one writer connection's bridged write, while its transaction runs.
        var write: SQLiteBridgeObserver?
        var reads: [ObjectIdentifier: DBReadTransaction] = [:]
    }

    private let bridged = LockedValue(Bridged())

    /// The connections whose bridged finalizations are running, inside
    /// SQLite's commit hook, where no statement may run on them.
    private static let finalizing = FinalizingConnections()

    /// The write bridged in the writer's open transaction, if any.
    var write: SQLiteBridgeObserver? {
        bridged.withLock { $0.write }
    }

    func setWrite(_ observer: SQLiteBridgeObserver?) {
        bridged.withLock { $0.write = observer }
    }

    /// Records the read bridged on `connection`, and returns the one it
    /// replaces (the application's earlier read on that connection, over).
    func replaceRead(_ transaction: DBReadTransaction, on connection: ObjectIdentifier) -> DBReadTransaction? {
        bridged.withLock { $0.reads.updateValue(transaction, forKey: connection) }
    }

    static func runFinalizations(on connection: ObjectIdentifier, _ body: () throws -> Void) rethrows {
        finalizing.insert(connection)
        defer { finalizing.remove(connection) }
        try body()
    }

    /// Whether `connection` is inside SQLite's commit hook, running the
    /// finalizations of a bridged transaction.
    static func isFinalizing(_ connection: Database) -> Bool {
        finalizing.contains(ObjectIdentifier(connection))
    }

    private final class FinalizingConnections: Sendable {
        private let count = AtomicInt(0)
        private let connections = LockedValue<Set<ObjectIdentifier>>([])

        func insert(_ connection: ObjectIdentifier) {
            connections.withLock { connections in
                connections.insert(connection)
                count.store(connections.count, ordering: .releasing)
            }
        }

        func remove(_ connection: ObjectIdentifier) {
            connections.withLock { connections in
                connections.remove(connection)
                count.store(connections.count, ordering: .releasing)
            }
        }

        func contains(_ connection: ObjectIdentifier) -> Bool {
            // The common case, no bridged finalization anywhere, takes no lock.
            if count.load(ordering: .acquiring) == 0 { return false }
            return connections.withLock { $0.contains(connection) }
        }
    }
}

/// Follows the application's write transaction that a `DBWriteTransaction`
/// was bridged from, and drives the bridged transaction's hooks: its
/// finalizations when the application's transaction is about to commit, the
/// commit observers and completions once it committed, nothing but the end
/// of the transaction when it rolled back.
///
/// It watches no table itself: while someone observes, the writer's
/// ``SQLiteChangeTracker`` hands it every table the application's
/// transaction changed (``detected``), at the commit hook.
final class SQLiteBridgeObserver: TransactionObserver, @unchecked Sendable {
    // Used only on the writer's queue, inside the application's transaction.
    let transaction: DBWriteTransaction
    private let connection: ObjectIdentifier
    private let bridges: SQLiteBridges
    /// The tables the application's transaction changed, when someone observes.
    var detected: Set<String> = []

    init(transaction: DBWriteTransaction, connection: ObjectIdentifier, bridges: SQLiteBridges) {
        self.transaction = transaction
        self.connection = connection
        self.bridges = bridges
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        false
    }

    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseWillCommit() throws {
        // SQLite's commit hook: the finalizations run here, and may not run
        // statements (see `writeTransaction(bridging:)`). Without any, the
        // connection is not marked (bridged_empty_write_tx).
        guard transaction.hasPendingFinalizations else {
            try TransactionEngine<SQLiteBackend>.bridgedWillCommit(transaction)
            return
        }
        try SQLiteBridges.runFinalizations(on: connection) {
            try TransactionEngine<SQLiteBackend>.bridgedWillCommit(transaction)
        }
    }

    func databaseDidCommit(_ db: Database) {
        bridges.setWrite(nil)
        TransactionEngine<SQLiteBackend>.bridgedDidCommit(transaction, detected: DBChanges(tables: detected))
    }

    func databaseDidRollback(_ db: Database) {
        bridges.setWrite(nil)
        TransactionEngine<SQLiteBackend>.bridgedDidRollBack(transaction)
    }
}
