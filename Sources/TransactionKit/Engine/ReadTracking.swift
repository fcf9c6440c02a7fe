/// What a backend can tell about the reads of a transaction, for value
/// observation: SQLite knows the tables its statements read; a backend
/// without one relies on the reads that code declares.
package protocol ReadTracking: Sendable {
    /// Runs `body` in `transaction` and returns, beside its result, the
    /// part of the database its statements read, or `nil` when the backend
    /// cannot tell for this transaction (its observation then fetches
    /// again after every commit).
    func trackingReads<T>(
        of transaction: DBReadTransaction, _ body: () throws -> T
    ) throws -> (value: T, region: (any ReadRegion)?)
}

/// A part of the database that a backend saw a fetch read.
package protocol ReadRegion: Sendable {
    /// Whether a commit that changed `table` may change what was read.
    func isModified(byTable table: String) -> Bool
    /// Whether the region covers the whole database (a statement the
    /// backend could not analyse).
    var isFullDatabase: Bool { get }
    /// Whether the fetch read nothing the backend could see.
    var isEmpty: Bool { get }
}

/// The reads of one observed fetch: the tables it declared
/// (`declareRead(table:)`, mocks), the key-value collections it read, and
/// what the backend saw. Used only on the thread that runs the fetch.
package final class ReadRecorder {
    package var tables: Set<String> = []
    package var keyValueCollections: Set<String> = []

    package init() {}
}
