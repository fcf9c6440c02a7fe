import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import RecipesCore

/// `RecipeSearchService` after `txkit migrate`: its async reads on a
/// `MockDB`, its query-interface and raw-SQL fetches behind the generated
/// `RecipeSearchService.Mocks.Database`.
struct RecipeSearchServiceMockDBTests {
    let db = MockDB()
    let dataAccess = RecipeSearchService.Mocks.Database()

    var service: RecipeSearchService { RecipeSearchService(db: db, dataAccess: dataAccess) }

    static let curry = Recipe(id: 1, title: "Curry", createdAt: Date(timeIntervalSince1970: 0))

    @Test func searchLooksForTheTrimmedTermAnywhereUpToTheLimit() async throws {
        dataAccess.fetchRecipes.returns([Self.curry])

        let found = try await service.search("  curry ", limit: 5)

        #expect(found == [Self.curry])
        #expect(dataAccess.fetchRecipes.calls.map(\.pattern) == ["%curry%"])
        #expect(dataAccess.fetchRecipes.calls.map(\.limit) == [5])
        #expect(dataAccess.fetchRecipes.sharedTransaction?.kind == .read)
    }

    @Test func aBlankTermFindsNothingWithoutATransaction() async throws {
        let found = try await service.search(" \n ")

        #expect(found.isEmpty)
        #expect(db.statistics == MockDB.Statistics())
    }

    @Test func recipesUsingAnIngredientAskForThatIngredient() async throws {
        dataAccess.fetchRecipesInRecipes.returns([Self.curry])

        let found = try await service.recipes(usingIngredient: "rice")

        #expect(found == [Self.curry])
        #expect(dataAccess.fetchRecipesInRecipes.calls == ["rice"])
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }
}
