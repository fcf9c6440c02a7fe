import TransactionKit
import TransactionKitSQLite

/// Creates, finds and archives threads; remembers a preference in its own
/// key-value collection (a stored property).
package final class ThreadManager: Sendable {
    let db: any DB
    private let preferences = ChatKeyValueStore(collection: "ThreadManager")

    package init(db: any DB) {
        self.db = db
    }

    /// Creates a thread unless one with this identifier exists.
    package func createThread(title: String, unlessExists uniqueId: String?) throws -> String {
        try db.write { tx in
            let transaction = ChatWriteTransaction(try SQLiteDB.shimOnlyBridge(tx))
            if let uniqueId, ChatThread.anyExists(uniqueId: uniqueId, transaction: transaction) {
                return uniqueId
            }
            let thread = try ChatThread.anyInsert(title: title, transaction: transaction)
            try preferences.setBool(true, key: "hasThreads", transaction: transaction)
            return thread.uniqueId
        }
    }

    /// The thread's title.
    package func title(of uniqueId: String) throws -> String? {
        try db.read { tx in
            let transaction = ChatReadTransaction(try SQLiteDB.shimOnlyBridge(tx))
            return ChatThread.anyFetch(uniqueId: uniqueId, transaction: transaction)?.title
        }
    }

    /// Archives a thread; returns the archived threads.
    package func archive(_ uniqueId: String) throws -> [String] {
        try db.write { tx in
            let transaction = ChatWriteTransaction(try SQLiteDB.shimOnlyBridge(tx))
            try ChatThread.setArchived(true, uniqueId: uniqueId, transaction: transaction)
            return ChatThread.archivedThreadIds(transaction: transaction)
        }
    }

    /// Whether any thread was ever created.
    package func hasThreads() throws -> Bool {
        try db.read { tx in
            preferences.getBool("hasThreads", defaultValue: false, transaction: ChatReadTransaction(try SQLiteDB.shimOnlyBridge(tx)))
        }
    }
}
