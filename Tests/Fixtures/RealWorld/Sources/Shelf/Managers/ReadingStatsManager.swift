import TransactionKit
import TransactionKitSQLite

/// Logs reading time and sums it, by book and by day (two overloads told
/// apart by their argument's type).
package final class ReadingStatsManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Logs a session; returns the minutes for the book and for the day.
    package func log(minutes: Int, isbn: String, day: Int64) throws -> (book: Int, day: Int) {
        try db.write { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            try ReadingSessionStore.shared.log(minutes: minutes, bookISBN: isbn, day: day, context: context)
            let byBook = ReadingSessionStore.shared.totalMinutes(for: isbn, context: context)
            let byDay = ReadingSessionStore.shared.totalMinutes(for: day, context: context)
            return (byBook, byDay)
        }
    }
}
