#if Postgres
import PostgresNIO

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension PostgresDB {
    /// The isolation level of a ``PostgresDB``'s write transactions
    /// (PostgreSQL's `SET TRANSACTION ISOLATION LEVEL`).
    ///
    /// Reads always see one snapshot: they run `REPEATABLE READ READ ONLY`,
    /// or `SERIALIZABLE READ ONLY` when writes are serializable.
    public enum IsolationLevel: String, Sendable, Hashable, CaseIterable {
        /// Each statement sees what was committed before it began; two
        /// writes that read, then update, the same row may both commit, and
        /// the first update is lost. PostgreSQL's own default.
        case readCommitted = "READ COMMITTED"
        /// The whole transaction sees one snapshot; an update of a row that
        /// a concurrent transaction changed and committed fails as a
        /// conflict.
        case repeatableRead = "REPEATABLE READ"
        /// Concurrent transactions give the result of some serial order, or
        /// one of them fails as a conflict: the guarantee `MockDB` and
        /// `SQLiteDB` give by running one write at a time.
        case serializable = "SERIALIZABLE"

        var beginWriteStatement: PostgresQuery {
            PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(rawValue)")
        }

        var beginReadStatement: PostgresQuery {
            let level = self == .serializable ? "SERIALIZABLE" : "REPEATABLE READ"
            return PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(level) READ ONLY")
        }
    }
}
#endif
