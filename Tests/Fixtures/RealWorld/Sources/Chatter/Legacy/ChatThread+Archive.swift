import GRDB

// Archiving, declared apart from the type (members in another file's
// extension).
extension ChatThread {
    /// The identifiers of the archived threads.
    package static func archivedThreadIds(transaction: ChatReadTransaction) -> [String] {
        (try? String.fetchAll(transaction.database, sql: "SELECT uniqueId FROM chat_thread WHERE isArchived = 1")) ?? []
    }

    /// Archives or unarchives a thread.
    package static func setArchived(_ isArchived: Bool, uniqueId: String, transaction: ChatWriteTransaction) throws {
        try transaction.database.execute(
            sql: "UPDATE chat_thread SET isArchived = ? WHERE uniqueId = ?", arguments: [isArchived, uniqueId])
    }
}
