import GRDB

/// Reading time, through a shared instance; two overloads differ only by
/// their argument's type.
package final class ReadingSessionStore: Sendable {
    /// The app-wide store.
    package static let shared = ReadingSessionStore()

    /// Logs reading time.
    package func log(minutes: Int, bookISBN: String, day: Int64, context: ManagedContext) throws {
        try context.database.execute(
            sql: "INSERT INTO shelf_session (isbn, minutes, day) VALUES (?, ?, ?)", arguments: [bookISBN, minutes, day])
    }

    /// Minutes spent on one book.
    package func totalMinutes(for isbn: String, context: ManagedContext) -> Int {
        (try? Int.fetchOne(
            context.database, sql: "SELECT COALESCE(SUM(minutes), 0) FROM shelf_session WHERE isbn = ?",
            arguments: [isbn])) ?? 0
    }

    /// Minutes spent on one day.
    package func totalMinutes(for day: Int64, context: ManagedContext) -> Int {
        (try? Int.fetchOne(
            context.database, sql: "SELECT COALESCE(SUM(minutes), 0) FROM shelf_session WHERE day = ?",
            arguments: [day])) ?? 0
    }
}
