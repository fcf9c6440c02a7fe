import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `CategoryRulesEngine` after `txkit migrate`: it read its database from
/// `AppEnvironment.current`; migrated, it takes a `MockDB` and the
/// generated `CategoryRulesEngine.Mocks.Database`, and never touches the
/// global environment.
struct CategoryRulesEngineMockDBTests {
    let db = MockDB()
    let dataAccess = CategoryRulesEngine.Mocks.Database()

    var engine: CategoryRulesEngine { CategoryRulesEngine(db: db, dataAccess: dataAccess) }

    static func entry(_ id: Int64, _ payee: String) -> Transaction {
        Transaction(id: id, accountId: 1, date: "2024-03-0\(id)", amountCents: -500, payee: payee)
    }

    @Test func aRuleForAnExistingCategoryUsesIt() async throws {
        dataAccess.named.returns(LedgerCategory(id: 2, name: "Cafe"))
        dataAccess.insertCategoryRule.stub { arguments in
            CategoryRule(id: 1, pattern: arguments.pattern, categoryId: arguments.category.id!, priority: arguments.priority)
        }

        let rule = try await engine.addRule(pattern: "coffee", categoryName: "Cafe", priority: 5)

        #expect(rule == CategoryRule(id: 1, pattern: "coffee", categoryId: 2, priority: 5))
        #expect(dataAccess.insertLedgerCategory.callCount == 0)
        let write = try #require(db.transactionLog.sharedTransaction(of: dataAccess.named, dataAccess.insertCategoryRule))
        #expect(write.isCommittedWrite)
    }

    @Test func aRuleForANewCategoryCreatesItFirst() async throws {
        dataAccess.named.returns(nil)
        dataAccess.insertLedgerCategory.stub { name in LedgerCategory(id: 8, name: name) }
        dataAccess.insertCategoryRule.stub { arguments in
            CategoryRule(id: 1, pattern: arguments.pattern, categoryId: arguments.category.id!, priority: arguments.priority)
        }

        let rule = try await engine.addRule(pattern: "market", categoryName: "Groceries")

        #expect(rule.categoryId == 8 && rule.priority == 0)
        #expect(dataAccess.insertLedgerCategory.calls == ["Groceries"])
        #expect(dataAccess.insertCategoryRule.calls.map(\.category.name) == ["Groceries"])
        #expect(dataAccess.insertLedgerCategory.ranOnlyInCommittedWrites)
    }

    @Test func theFirstMatchingRuleFilesEachUncategorizedEntry() async throws {
        dataAccess.fetchCategoryRules.returns([
            CategoryRule(id: 1, pattern: "coffee", categoryId: 1, priority: 10),
            CategoryRule(id: 2, pattern: "co", categoryId: 3, priority: 1),
            CategoryRule(id: 3, pattern: "market", categoryId: 2, priority: 1),
        ])
        dataAccess.fetchLedgerCategories.returns([
            LedgerCategory(id: 1, name: "Cafe"), LedgerCategory(id: 2, name: "Groceries"), LedgerCategory(id: 3, name: "Misc"),
        ])
        dataAccess.uncategorized.returns([Self.entry(1, "Coffee Corner"), Self.entry(2, "Farmers Market"), Self.entry(3, "Landlord")])
        dataAccess.updateTransaction.returns()

        let result = try await engine.applyRules()

        #expect(result == RuleApplicationResult(examined: 3, categorized: 2, countsByCategory: ["Cafe": 1, "Groceries": 1]))
        #expect(dataAccess.updateTransaction.calls.map(\.id) == [1, 2])
        #expect(dataAccess.updateTransaction.calls.map(\.categoryId) == [1, 2])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.fetchCategoryRules, dataAccess.fetchLedgerCategories, dataAccess.uncategorized, dataAccess.updateTransaction))
        #expect(write.isCommittedWrite)
    }

    @Test func nothingToFileWritesNothing() async throws {
        dataAccess.fetchCategoryRules.returns([CategoryRule(id: 1, pattern: "coffee", categoryId: 1, priority: 10)])
        dataAccess.fetchLedgerCategories.returns([LedgerCategory(id: 1, name: "Cafe")])
        dataAccess.uncategorized.returns([Self.entry(1, "Landlord")])

        let result = try await engine.applyRules()

        #expect(result == RuleApplicationResult(examined: 1, categorized: 0, countsByCategory: [:]))
        #expect(dataAccess.updateTransaction.callCount == 0)
    }
}
