import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `ReportService` after `txkit migrate`: read-only reports on a `MockDB`,
/// its SQL behind the generated `ReportService.Mocks.Database`.
struct ReportServiceMockDBTests {
    let db = MockDB()
    let dataAccess = ReportService.Mocks.Database()

    var service: ReportService { ReportService(db: db, dataAccess: dataAccess) }

    @Test func monthlyTotalsAskForTheMonthsAndAccounts() async throws {
        let march = MonthlyTotal(month: "2024-03", incomeCents: 250_000, spendingCents: 90_000, entryCount: 12)
        dataAccess.monthlyTotals.returns([march])

        let totals = try await service.monthlyTotals(from: "2024-01", through: "2024-03", accountIds: [1, 2])
        _ = try await service.monthlyTotals(from: "2024-01", through: "2024-01")

        #expect(totals == [march])
        #expect(totals.map(\.netCents) == [160_000])
        #expect(dataAccess.monthlyTotals.calls.map(\.accountIds) == [[1, 2], nil])
        #expect(dataAccess.monthlyTotals.calls.map(\.startMonth) == ["2024-01", "2024-01"])
        #expect(db.statistics == MockDB.Statistics(reads: 2))
    }

    @Test func theBreakdownIsTheMonths() async throws {
        let food = CategoryTotal(categoryName: "Food", spentCents: 4_500, entryCount: 3)
        dataAccess.categoryBreakdown.returns([food])

        #expect(try await service.categoryBreakdown(month: "2024-03") == [food])
        #expect(dataAccess.categoryBreakdown.calls == ["2024-03"])
        #expect(dataAccess.categoryBreakdown.sharedTransaction?.kind == .read)
    }

    @Test func netWorthAddsOpeningBalancesAndActivityFromOneRead() async throws {
        dataAccess.fetchInt64.returns(10_000)
        dataAccess.fetchInt64InNetWorth.returns(-2_500)

        #expect(try await service.netWorth(asOf: "2024-03-31") == 7_500)
        #expect(dataAccess.fetchInt64.calls == ["2024-03-31"])
        #expect(dataAccess.fetchInt64InNetWorth.calls == ["2024-03-31"])
        let read = try #require(db.transactionLog.sharedTransaction(of: dataAccess.fetchInt64, dataAccess.fetchInt64InNetWorth))
        #expect(read.kind == .read)
    }

    @Test func anEmptyLedgerIsWorthNothing() async throws {
        dataAccess.fetchInt64.returns(nil)
        dataAccess.fetchInt64InNetWorth.returns(nil)

        #expect(try await service.netWorth(asOf: "2024-03-31") == 0)
    }
}
