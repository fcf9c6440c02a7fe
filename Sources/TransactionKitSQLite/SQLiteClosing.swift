import TransactionKit

/// Whether ``SQLiteDB/close()`` was called: shared by the database and its
/// backend, read at the start of every transaction (one atomic load).
final class SQLiteClosing: Sendable {
    private let closed = AtomicInt(0)

    /// Whether the database is closed.
    var isClosed: Bool {
        closed.load(ordering: .acquiring) != 0
    }

    /// Marks the database closed; returns `false` if it already was.
    func markClosed() -> Bool {
        closed.exchange(1, ordering: .acquiringAndReleasing) == 0
    }
}
