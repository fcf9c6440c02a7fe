import GRDB

/// Prepares and records outgoing messages: static functions taking GRDB's
/// `Database` first, with a nested result type.
package enum SendPipeline {
    /// What the network layer needs to send one message.
    package struct PreparedSendData: Equatable, Sendable {
        package var interactionId: Int64
        package var threadId: String
        package var body: String
    }

    /// Reads a stored message and prepares it for sending.
    package static func preparedSendData(_ db: Database, interactionId: Int64) throws -> PreparedSendData? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT threadId, body FROM relay_interaction WHERE id = ?", arguments: [interactionId])
        else { return nil }
        return PreparedSendData(interactionId: interactionId, threadId: row["threadId"], body: row["body"])
    }

    /// Records that a prepared message went out.
    package static func markSent(_ db: Database, data: PreparedSendData, at timestamp: Int64) throws {
        try db.execute(
            sql: "UPDATE relay_interaction SET sentAt = ? WHERE id = ?", arguments: [timestamp, data.interactionId])
    }
}
