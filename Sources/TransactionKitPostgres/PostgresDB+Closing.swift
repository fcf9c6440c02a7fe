#if Postgres
import TransactionKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension PostgresDB {
    /// Shuts the database down gracefully: refuses new transactions, waits
    /// for the running ones to end (commit or roll back), then closes every
    /// pooled connection.
    ///
    /// ```swift
    /// await db.close()   // on SIGTERM, after the server stopped accepting requests
    /// ```
    ///
    /// A transaction begun after `close()` throws
    /// ``/TransactionKit/DBError`` of kind `closed`. Calling `close()` again
    /// returns when the first call has finished.
    ///
    /// - Warning: Calling `close()` from inside a transaction block of this
    ///   database waits forever (for that very transaction).
    public func close() async {
        await lifecycle.closeAndWait()
        await connections.shutDown()
        threads.shutDown()
    }
}
#endif
