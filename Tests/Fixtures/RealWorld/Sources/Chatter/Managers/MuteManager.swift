import TransactionKit
import TransactionKitSQLite

/// Mutes threads through the per-thread settings value it fetches
/// (a local whose type comes from a legacy call).
package final class MuteManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Mutes a thread until `timestamp`.
    package func mute(threadId: String, until timestamp: Int64) throws {
        try db.write { tx in
            let transaction = ChatWriteTransaction(try SQLiteDB.shimOnlyBridge(tx))
            let data = ThreadAssociatedData.fetchOrDefault(threadId: threadId, transaction: transaction)
            try data.updateMutedUntil(timestamp, transaction: transaction)
        }
    }
}
