import TransactionKit
import TransactionKitSQLite

/// Queues attachment downloads.
package final class AttachmentManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Queues the attachments; returns everything queued.
    package func download(_ attachmentIds: [String]) throws -> [String] {
        try db.write { tx in
            let database = try SQLiteDB.shimOnlyBridge(tx)
            for id in attachmentIds {
                try AttachmentDownloads.enqueue(database, attachmentId: id)
            }
            return try AttachmentDownloads.pendingIds(database)
        }
    }
}
