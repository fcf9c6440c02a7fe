import TransactionKit
import TransactionKitSQLite

/// Stores outgoing messages, prepares them for the network and records
/// that they went out.
package final class MessageSendManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Stores a message and prepares it; nil when it vanished meanwhile.
    package func enqueue(_ body: String, threadId: String) throws -> SendPipeline.PreparedSendData? {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            let id = try InteractionStore.insert(database, threadId: threadId, body: body)
            return try SendPipeline.preparedSendData(database, interactionId: id)
        }
    }

    /// Records that a message went out.
    package func didSend(_ data: SendPipeline.PreparedSendData, at timestamp: Int64) throws {
        try db.write { tx in
            try SendPipeline.markSent(try SQLiteDB.shimOnlyBridge(tx), data: data, at: timestamp)
        }
    }
}
