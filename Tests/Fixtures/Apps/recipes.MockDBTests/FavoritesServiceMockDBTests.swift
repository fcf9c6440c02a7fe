import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import RecipesCore

/// `FavoritesService` after `txkit migrate`, on a `MockDB`: the settings
/// store behind the generated `FavoritesService.Mocks.SettingsStore`, the
/// recipes through a `txkit mock` of the app's `RecipeRepository`.
struct FavoritesServiceMockDBTests {
    let db = MockDB()
    let settings = FavoritesService.Mocks.SettingsStore()
    let recipes = RecipeRepositoryMock()

    var service: FavoritesService { FavoritesService(db: db, settings: settings, recipes: recipes) }

    static func recipe(_ id: Int64?) -> Recipe {
        Recipe(id: id, title: "Recipe \(id ?? 0)", createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test func isFavoriteReadsTheRecipesKey() throws {
        settings.bool.stub { key in key == FavoritesService.key(for: 3) }

        #expect(try service.isFavorite(recipeId: 3))
        #expect(try !service.isFavorite(recipeId: 4))
        #expect(settings.bool.calls == [FavoritesService.key(for: 3), FavoritesService.key(for: 4)])
        #expect(db.transactionLog.transactions.map(\.kind) == [.read, .read])
    }

    @Test func togglingReadsAndWritesTheKeyInOneCommittedWrite() throws {
        recipes.recipe.returns(Self.recipe(3))
        settings.bool.returns(false)
        settings.setByValueKeyBoolString.returns()

        let newValue = try service.toggleFavorite(recipeId: 3)

        #expect(newValue)
        #expect(settings.setByValueKeyBoolString.calls.map { "\($0.key)=\($0.value)" } == ["\(FavoritesService.key(for: 3))=true"])
        let write = try #require(db.transactionLog.sharedTransaction(of: settings.bool, settings.setByValueKeyBoolString))
        #expect(write.isCommittedWrite)
        #expect(settings.setByValueKeyStringString.callCount == 0)
    }

    @Test func togglingAnUnknownRecipeOpensNoTransaction() throws {
        recipes.recipe.returns(nil)

        #expect(throws: RecipesError.notFound("recipe 9")) { try service.toggleFavorite(recipeId: 9) }
        #expect(db.statistics == MockDB.Statistics())
    }

    @Test func favoriteRecipesKeepsTheFavoritesWithAnId() throws {
        recipes.allRecipesCall.returns([Self.recipe(1), Self.recipe(nil), Self.recipe(2), Self.recipe(3)])
        settings.bool.stub { key in key != FavoritesService.key(for: 2) }

        let favorites = try service.favoriteRecipes()

        #expect(favorites.map(\.id) == [1, 3])
        #expect(settings.bool.calls.count == 3)
        #expect(db.statistics == MockDB.Statistics(reads: 3))
    }

    @Test func showOnlyFavoritesIsReadAndWrittenUnderItsKey() throws {
        settings.bool.returns(true)
        settings.setByValueKeyBoolString.returns()
        let service = self.service

        #expect(service.showOnlyFavorites)
        service.showOnlyFavorites = false

        #expect(settings.bool.calls == [FavoritesService.showOnlyFavoritesKey])
        #expect(settings.setByValueKeyBoolString.calls.map { "\($0.key)=\($0.value)" } == ["\(FavoritesService.showOnlyFavoritesKey)=false"])
        #expect(settings.setByValueKeyBoolString.ranOnlyInCommittedWrites)
    }
}
