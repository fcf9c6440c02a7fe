import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `RecurringPaymentsJob` (an actor) after `txkit migrate`: scheduling and the
/// batched posting on a `MockDB`, one committed write per batch, the records
/// behind the generated `RecurringPaymentsJob.Mocks.Database`.
struct RecurringPaymentsJobMockDBTests {
    let db = MockDB()
    let dataAccess = RecurringPaymentsJob.Mocks.Database()

    static let checking = Account(id: 1, name: "Checking", kind: .checking, openingBalanceCents: 0, openedOn: "2024-01-01")

    static func payment(_ id: Int64, due: String, cadenceMonths: Int = 1, endDate: String? = nil) -> RecurringPayment {
        RecurringPayment(id: id, accountId: 1, payee: "Payee \(id)", amountCents: -100 * id,
                         nextDueDate: due, cadenceMonths: cadenceMonths, endDate: endDate)
    }

    @Test func aPaymentIsScheduledWithItsCategory() async throws {
        dataAccess.requireAccount.returns(Self.checking)
        dataAccess.named.returns(LedgerCategory(id: 3, name: "Rent"))
        dataAccess.insertRecurringPayment.stub { arguments in
            RecurringPayment(id: 8, accountId: arguments.accountId, payee: arguments.payee, amountCents: arguments.amountCents,
                             categoryId: arguments.categoryId, nextDueDate: arguments.firstDue, cadenceMonths: arguments.cadenceMonths,
                             endDate: arguments.endDate)
        }
        let job = RecurringPaymentsJob(db: db, dataAccess: dataAccess)

        let payment = try await job.schedule(accountId: 1, payee: "Landlord", amountCents: -150_000, categoryName: "Rent",
                                             firstDue: "2024-04-01", cadenceMonths: 1, endDate: "2024-12-31")

        #expect(payment.id == 8 && payment.categoryId == 3 && payment.nextDueDate == "2024-04-01")
        #expect(dataAccess.requireAccount.calls == [1])
        #expect(dataAccess.named.calls == ["Rent"])
        #expect(dataAccess.insertRecurringPayment.calls.map(\.endDate) == ["2024-12-31"])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.requireAccount, dataAccess.named, dataAccess.insertRecurringPayment))
        #expect(write.isCommittedWrite)
    }

    @Test func anUnknownCategoryOrDateSchedulesNothing() async throws {
        dataAccess.requireAccount.returns(Self.checking)
        dataAccess.named.returns(nil)
        let job = RecurringPaymentsJob(db: db, dataAccess: dataAccess)

        await #expect(throws: LedgerError.invalidDate("someday")) {
            try await job.schedule(accountId: 1, payee: "Gym", amountCents: -3_000, firstDue: "someday")
        }
        #expect(db.statistics == MockDB.Statistics())
        await #expect(throws: LedgerError.categoryNotFound("Sport")) {
            try await job.schedule(accountId: 1, payee: "Gym", amountCents: -3_000, categoryName: "Sport", firstDue: "2024-04-01")
        }
        #expect(dataAccess.insertRecurringPayment.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
    }

    @Test func duePaymentsArePostedInBatchesUntilNoneIsLeft() async throws {
        let batches = [
            [Self.payment(1, due: "2024-03-01"), Self.payment(2, due: "2024-03-05", cadenceMonths: 3, endDate: "2024-05-01")],
            [Self.payment(1, due: "2024-04-01")],
        ]
        let dataAccess = self.dataAccess
        dataAccess.fetchRecurringPayments.stub { _ in
            let call = dataAccess.fetchRecurringPayments.callCount
            return call <= batches.count ? batches[call - 1] : []
        }
        dataAccess.insertTransaction.returns()
        dataAccess.updateRecurringPayment.returns()
        let job = RecurringPaymentsJob(db: db, batchSize: 2, dataAccess: dataAccess)

        let summary = try await job.processDue(through: "2024-04-15")

        #expect(summary == RecurringRunSummary(postedCount: 3, batchCount: 2, deactivatedCount: 1))
        #expect(dataAccess.fetchRecurringPayments.calls.map { "\($0.day) \($0.batchSize)" } == Array(repeating: "2024-04-15 2", count: 3))
        #expect(dataAccess.insertTransaction.calls.map(\.id) == [1, 2, 1])
        let updated = dataAccess.updateRecurringPayment.calls
        #expect(updated.map(\.lastPostedOn) == ["2024-03-01", "2024-03-05", "2024-04-01"])
        #expect(updated.map(\.nextDueDate) == ["2024-04-01", "2024-06-05", "2024-05-01"])
        #expect(updated.map(\.active) == [true, false, true])
        #expect(db.transactionLog.writes.map(\.isCommittedWrite) == [true, true, true])
        #expect(dataAccess.updateRecurringPayment.transactionIDs.count == 3)
        #expect(Set(dataAccess.updateRecurringPayment.transactionIDs).count == 2)
    }
}
