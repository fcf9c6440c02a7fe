import GRDB

/// Threads. One member takes an optional, defaulted database
/// (`_ db: Database? = nil`): callers outside a transaction pass none.
package enum ThreadStore {
    /// The thread's identifier, inserting the thread when it is new.
    @discardableResult
    package static func fetchOrCreate(_ db: Database, id: String) throws -> String {
        try db.execute(sql: "INSERT OR IGNORE INTO relay_thread (id) VALUES (?)", arguments: [id])
        return id
    }

    /// Whether the thread is pinned; false without a database.
    package static func isPinned(_ db: Database? = nil, id: String) -> Bool {
        guard let db else { return false }
        return (try? Bool.fetchOne(db, sql: "SELECT isPinned FROM relay_thread WHERE id = ?", arguments: [id])) == true
    }
}
