import Foundation
import GRDB

/// The transaction clock of one ``SQLiteReader`` connection: the
/// configuration's own clock, which it asks, and a mark that GRDB asked.
///
/// GRDB asks its connection's clock whenever it sees the connection leave
/// autocommit mode (`TransactionClock`'s contract: when one of its
/// statements finishes or fails inside a transaction), and when
/// `Database.transactionDate` is read outside one. On a read-only
/// connection that is all GRDB follows of a transaction: it installs no
/// observation broker there. So while GRDB did not ask since a read began,
/// GRDB still sees the connection in autocommit mode, and the read may end
/// with a `COMMIT` GRDB does not run (``SQLiteTransactionStatements``).
///
/// The mark is read and written on the reader's queue only: GRDB asks on
/// the connection's queue, and the transaction statements run there.
final class SQLiteReaderTransactionClock: TransactionClock, @unchecked Sendable {
    private let base: any TransactionClock
    /// Whether GRDB asked since ``reset()``.
    @exclusivity(unchecked) private(set) var wasAsked = false

    /// A clock that asks `base`.
    init(_ base: any TransactionClock) {
        self.base = base
    }

    func now(_ db: Database) throws -> Date {
        wasAsked = true
        return try base.now(db)
    }

    /// Forgets that GRDB asked, when a transaction begins.
    func reset() {
        wasAsked = false
    }
}
