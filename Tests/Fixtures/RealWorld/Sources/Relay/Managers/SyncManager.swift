import GRDB

/// Imports messages from a linked device in the app's own GRDB
/// transaction (`pool.write { db in … }`): it has not moved to
/// TransactionKit's `DB` yet.
package final class SyncManager: Sendable {
    let pool: DatabasePool

    package init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Stores the messages and queues their attachments.
    package func importMessages(_ messages: [(threadId: String, body: String, attachmentId: String?)]) throws {
        try pool.write { db in
            for message in messages {
                try InteractionStore.insert(db, threadId: message.threadId, body: message.body)
                if let attachmentId = message.attachmentId {
                    try AttachmentDownloads.enqueue(db, attachmentId: attachmentId)
                }
            }
        }
    }
}
