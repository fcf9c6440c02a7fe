import GRDB

/// Loans to library members, through a singleton function
/// (`LoanLedger.shared()`).
package final class LoanLedger: Sendable {
    /// A book on loan.
    package struct Loan: Equatable, Sendable {
        package var isbn: String
        package var member: String
        package var due: Int64
    }

    private static let instance = LoanLedger()

    /// The app-wide ledger.
    package static func shared() -> LoanLedger {
        instance
    }

    /// The book's current loan.
    package func activeLoan(isbn: String, in context: ManagedContext) -> Loan? {
        guard let row = try? Row.fetchOne(
            context.database, sql: "SELECT member, due FROM shelf_loan WHERE isbn = ?", arguments: [isbn])
        else { return nil }
        return Loan(isbn: isbn, member: row["member"], due: row["due"])
    }

    /// Lends a book.
    package func lend(isbn: String, to member: String, due: Int64, in context: ManagedContext) throws -> Loan {
        try context.database.execute(
            sql: "INSERT INTO shelf_loan (isbn, member, due) VALUES (?, ?, ?)", arguments: [isbn, member, due])
        return Loan(isbn: isbn, member: member, due: due)
    }

    /// Ends a book's loan.
    package func returnBook(isbn: String, in context: ManagedContext) throws {
        try context.database.execute(sql: "DELETE FROM shelf_loan WHERE isbn = ?", arguments: [isbn])
    }

    /// How many loans are due before `day`.
    package func overdueCount(before day: Int64, in context: ManagedContext) -> Int {
        (try? Int.fetchOne(context.database, sql: "SELECT COUNT(*) FROM shelf_loan WHERE due < ?", arguments: [day])) ?? 0
    }
}
