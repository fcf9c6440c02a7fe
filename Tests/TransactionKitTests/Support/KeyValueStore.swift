import GRDB
import Foundation
import TransactionKit
import TransactionKitSQLite

/// The finder the behaviour suite writes through: integer values by key.
protocol KeyValueStore: Sendable {
    func set(_ key: String, _ value: Int, _ tx: DBWriteTransaction) throws
    func get(_ key: String, _ tx: DBReadTransaction) throws -> Int?
}

/// The real finder: SQL through `SQLiteDB.shimOnlyBridge`.
struct SQLiteKeyValueStore: KeyValueStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create kv") { db in
            try db.execute(sql: "CREATE TABLE kv (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL)")
        }
        return migrator
    }

    func set(_ key: String, _ value: Int, _ tx: DBWriteTransaction) throws {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        try db.execute(
            sql: "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }

    func get(_ key: String, _ tx: DBReadTransaction) throws -> Int? {
        let db = try SQLiteDB.shimOnlyBridge(tx)
        return try Int.fetchOne(db, sql: "SELECT value FROM kv WHERE key = ?", arguments: [key])
    }
}

/// A transaction-aware mock finder for `MockDB`: a write becomes visible to
/// other transactions only when its transaction commits, because it is
/// applied by a sync completion, which never runs after a rollback.
///
/// Sync completions run after the commit has released the write lock, so a
/// concurrent writer may read the old value in between: unlike SQL, a
/// read-modify-write through this store is not atomic under concurrency.
final class MockKeyValueStore: KeyValueStore, @unchecked Sendable {
    private struct Pending {
        let transaction: DBWriteTransaction
        var changes: [String: Int]
    }

    private struct State {
        var committed: [String: Int] = [:]
        var pending: [Pending] = []
    }

    private let lock = NSLock()
    private var storage = State()

    private func withState<R>(_ body: (inout State) -> R) -> R {
        lock.withLock { body(&storage) }
    }

    func set(_ key: String, _ value: Int, _ tx: DBWriteTransaction) throws {
        tx.preconditionActive()
        let isFirstWrite = withState { state -> Bool in
            // Entries of rolled-back transactions stay (they are only ever
            // read by their own transaction). Pruning them here by asking
            // `isActive` of *other* threads' transactions raced with their
            // commit: an entry whose transaction was between its last
            // finalization and its sync completion was dropped, losing a
            // committed write (seen by ConcurrentHooksTests).
            if let index = state.pending.firstIndex(where: { $0.transaction === tx }) {
                state.pending[index].changes[key] = value
                return false
            }
            state.pending.append(Pending(transaction: tx, changes: [key: value]))
            return true
        }
        if isFirstWrite {
            tx.addSyncCompletion { [self] in
                self.withState { state in
                    guard let index = state.pending.firstIndex(where: { $0.transaction === tx }) else { return }
                    state.committed.merge(state.pending[index].changes) { $1 }
                    state.pending.remove(at: index)
                }
            }
        }
    }

    func get(_ key: String, _ tx: DBReadTransaction) throws -> Int? {
        tx.preconditionActive()
        return withState { state in
            if let own = state.pending.first(where: { $0.transaction === tx }), let value = own.changes[key] {
                return value
            }
            return state.committed[key]
        }
    }
}
