import TransactionKit

/// Counts overdue loans for the reminder screen. It still receives the
/// legacy context from its caller instead of opening a transaction.
package final class LoanReminderManager: Sendable {
    package init() {}

    /// How many loans are overdue on `day`, in the caller's context.
    package func overdueCount(on day: Int64, in context: ManagedContext) -> Int {
        LoanLedger.shared().overdueCount(before: day, in: context)
    }
}
