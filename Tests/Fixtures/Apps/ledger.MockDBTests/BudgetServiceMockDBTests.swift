import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `BudgetService` (an actor) after `txkit migrate`, on a `MockDB`: the app's
/// `BudgetFinder` behind the generated `BudgetService.Mocks.BudgetFinder`,
/// its inline records and SQL behind `BudgetService.Mocks.Database`.
struct BudgetServiceMockDBTests {
    let db = MockDB()
    let finder = BudgetService.Mocks.BudgetFinder()
    let dataAccess = BudgetService.Mocks.Database()

    var service: BudgetService { BudgetService(db: db, finder: finder, dataAccess: dataAccess) }

    static let food = LedgerCategory(id: 4, name: "Food")

    @Test func anExistingBudgetGetsTheNewLimit() async throws {
        dataAccess.named.returns(Self.food)
        finder.budget.returns(Budget(id: 9, categoryId: 4, month: "2024-03", limitCents: 100))
        dataAccess.updateBudget.returns()

        let budget = try await service.setBudget(categoryName: "Food", month: "2024-03", limitCents: 300)

        #expect(budget == Budget(id: 9, categoryId: 4, month: "2024-03", limitCents: 300))
        #expect(dataAccess.named.calls == ["Food"])
        #expect(finder.budget.calls.map { "\($0.categoryId) \($0.month)" } == ["4 2024-03"])
        #expect(dataAccess.updateBudget.calls.map(\.limitCents) == [300])
        #expect(dataAccess.insertBudget.callCount == 0)
        let write = try #require(db.transactionLog.sharedTransaction(of: dataAccess.named, finder.budget, dataAccess.updateBudget))
        #expect(write.isCommittedWrite)
    }

    @Test func aNewBudgetIsInserted() async throws {
        dataAccess.named.returns(Self.food)
        finder.budget.returns(nil)
        dataAccess.insertBudget.stub { arguments in
            Budget(id: 10, categoryId: arguments.categoryId, month: arguments.month, limitCents: arguments.limitCents)
        }

        let budget = try await service.setBudget(categoryName: "Food", month: "2024-04", limitCents: 250)

        #expect(budget.id == 10)
        #expect(dataAccess.insertBudget.calls.map { "\($0.categoryId) \($0.month) \($0.limitCents)" } == ["4 2024-04 250"])
        #expect(dataAccess.insertBudget.ranOnlyInCommittedWrites)
    }

    @Test func anUnknownCategoryOrANegativeLimitIsRefused() async throws {
        dataAccess.named.returns(nil)

        await #expect(throws: LedgerError.invalidAmount("-1")) {
            try await service.setBudget(categoryName: "Food", month: "2024-03", limitCents: -1)
        }
        #expect(db.statistics == MockDB.Statistics())
        await #expect(throws: LedgerError.categoryNotFound("Fun")) {
            try await service.setBudget(categoryName: "Fun", month: "2024-03", limitCents: 10)
        }
        #expect(finder.budget.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
    }

    @Test func statusComparesEachBudgetWithWhatWasSpentInOneRead() async throws {
        finder.budgetsWithCategories.returns([
            BudgetWithCategory(budget: Budget(id: 1, categoryId: 4, month: "2024-03", limitCents: 300), category: Self.food),
            BudgetWithCategory(budget: Budget(id: 2, categoryId: 5, month: "2024-03", limitCents: 100), category: LedgerCategory(id: 5, name: "Fun")),
        ])
        dataAccess.spending.stub { arguments in arguments.categoryId == 4 ? 120 : 180 }

        let status = try await service.status(for: "2024-03")

        #expect(status.map(\.categoryName) == ["Food", "Fun"])
        #expect(status.map(\.remainingCents) == [180, -80])
        #expect(status.map(\.isOverBudget) == [false, true])
        #expect(dataAccess.spending.calls.map(\.month) == ["2024-03", "2024-03"])
        let read = try #require(db.transactionLog.sharedTransaction(of: finder.budgetsWithCategories, dataAccess.spending))
        #expect(read.kind == .read)
    }

    @Test func rollingOverCopiesLastMonthsBudgetsThatAreMissing() async throws {
        finder.budgets.returns([
            Budget(id: 1, categoryId: 4, month: "2024-02", limitCents: 300),
            Budget(id: 2, categoryId: 5, month: "2024-02", limitCents: 100),
        ])
        finder.budget.stub { arguments in
            arguments.categoryId == 5 ? Budget(id: 3, categoryId: 5, month: "2024-03", limitCents: 90) : nil
        }
        dataAccess.insertBudgetInRollOver.returns()

        let copied = try await service.rollOver(into: "2024-03")

        #expect(copied == 1)
        #expect(finder.budgets.calls == ["2024-02"])
        #expect(finder.budget.calls.map(\.month) == ["2024-03", "2024-03"])
        #expect(dataAccess.insertBudgetInRollOver.calls.map { "\($0.budget.categoryId) \($0.month)" } == ["4 2024-03"])
        #expect(dataAccess.insertBudgetInRollOver.ranOnlyInCommittedWrites)
    }
}
