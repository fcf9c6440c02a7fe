import TransactionKit
import TransactionKitSQLite

/// Lends and takes back books, through the ledger's singleton function
/// kept in a local or called on the spot.
package final class LoanManager: Sendable {
    let db: any DB

    package init(db: any DB) {
        self.db = db
    }

    /// Lends a book that exists and is not on loan; returns the loan.
    package func lend(isbn: String, to member: String, due: Int64) throws -> LoanLedger.Loan? {
        try db.write { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            let ledger = LoanLedger.shared()
            guard Book.fetch(isbn: isbn, in: context) != nil,
                  ledger.activeLoan(isbn: isbn, in: context) == nil
            else { return nil }
            return try ledger.lend(isbn: isbn, to: member, due: due, in: context)
        }
    }

    /// Ends a loan.
    package func takeBack(isbn: String) throws {
        try db.write { tx in
            let context = ManagedContext(try SQLiteDB.shimOnlyBridge(tx))
            try LoanLedger.shared().returnBook(isbn: isbn, in: context)
        }
    }
}
