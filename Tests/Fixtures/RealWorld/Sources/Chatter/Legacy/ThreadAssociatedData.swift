import GRDB

/// Per-thread settings, fetched as a value and then updated through it
/// (`let data = ThreadAssociatedData.fetchOrDefault(…)`, then
/// `data.updateMutedUntil(…)`).
package final class ThreadAssociatedData: Sendable {
    package let threadId: String
    package let mutedUntil: Int64

    package init(threadId: String, mutedUntil: Int64) {
        self.threadId = threadId
        self.mutedUntil = mutedUntil
    }

    /// The thread's settings, or the defaults when none are stored.
    package static func fetchOrDefault(threadId: String, transaction: ChatReadTransaction) -> ThreadAssociatedData {
        let muted = try? Int64.fetchOne(
            transaction.database, sql: "SELECT mutedUntil FROM chat_thread_data WHERE threadId = ?", arguments: [threadId])
        return ThreadAssociatedData(threadId: threadId, mutedUntil: muted ?? 0)
    }

    /// Mutes the thread until `timestamp` (0 unmutes it).
    package func updateMutedUntil(_ timestamp: Int64, transaction: ChatWriteTransaction) throws {
        try transaction.database.execute(
            sql: "INSERT OR REPLACE INTO chat_thread_data (threadId, mutedUntil) VALUES (?, ?)",
            arguments: [threadId, timestamp])
    }
}
