import GRDB

/// The queue of attachments to download.
package enum AttachmentDownloads {
    /// Queues an attachment (once).
    package static func enqueue(_ db: Database, attachmentId: String) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO relay_download (attachmentId) VALUES (?)", arguments: [attachmentId])
    }

    /// The queued attachments.
    package static func pendingIds(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT attachmentId FROM relay_download ORDER BY attachmentId")
    }
}
