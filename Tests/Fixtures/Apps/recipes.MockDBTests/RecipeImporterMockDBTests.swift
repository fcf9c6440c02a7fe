import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import RecipesCore

/// `RecipeImporter` after `txkit migrate`, on a `MockDB`, with the generated
/// mocks of its two repositories' shims.
///
/// The success path needs `save(&recipe)` to give the recipe its id, as
/// GRDB's insert does (`importRecipe` force-unwraps it): the stub of
/// `RecipeImporter.Mocks.GRDBRecipeRepository.save` receives the `inout`
/// recipe as a `MockInout` and sets it.
struct RecipeImporterMockDBTests {
    let db = MockDB()
    let recipes = RecipeImporter.Mocks.GRDBRecipeRepository()
    let ingredients = RecipeImporter.Mocks.GRDBIngredientRepository()

    static let json = """
        {"title": " Pancakes ", "servings": 4, "ingredients": [
            {"name": "egg", "unit": "pc", "quantity": 2},
            {"name": "flour", "unit": "g", "quantity": 250, "caloriesPerUnit": 3.6, "category": "baking", "note": "sifted"}
        ]}
        """

    @Test func aRecipeAndItsLinesAreSavedInOneCommittedWrite() throws {
        recipes.recipe.returns(nil)
        recipes.save.stub { _, recipe in recipe.value.id = 42 }
        recipes.addIngredient.returns()
        ingredients.findOrCreate.stub { name, unit, calories, category in
            Ingredient(id: name == "egg" ? 1 : 2, name: name, unit: unit, caloriesPerUnit: calories ?? 0, category: category)
        }
        let importer = RecipeImporter(db: db, recipeRepository: recipes, ingredientRepository: ingredients)
        let importedAt = Date(timeIntervalSince1970: 1_700_000_000)

        let recipe = try importer.importRecipe(json: Self.json, importedAt: importedAt)

        #expect(recipe.id == 42 && recipe.title == "Pancakes" && recipe.servings == 4 && recipe.createdAt == importedAt)
        #expect(recipes.recipe.calls == ["Pancakes"])
        #expect(recipes.save.calls.map(\.title) == ["Pancakes"])
        #expect(ingredients.findOrCreate.calls.map(\.name) == ["egg", "flour"])
        #expect(ingredients.findOrCreate.calls.map(\.category) == [nil, "baking"])
        #expect(recipes.addIngredient.calls.map { [$0.recipeId, $0.ingredientId] } == [[42, 1], [42, 2]])
        #expect(recipes.addIngredient.calls.map(\.note) == [nil, "sifted"])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: recipes.recipe, recipes.save, ingredients.findOrCreate, recipes.addIngredient))
        #expect(write.isCommittedWrite)
    }

    @Test func aDuplicateTitleRollsBackAndSavesNothing() throws {
        recipes.recipe.returns(Recipe(id: 5, title: "Pancakes", createdAt: Date(timeIntervalSince1970: 0)))
        // `save`, `addIngredient` and `findOrCreate` have no stub: a call would fail the test.
        let importer = RecipeImporter(db: db, recipeRepository: recipes, ingredientRepository: ingredients)

        #expect(throws: ImportError.duplicateRecipe("Pancakes")) {
            try importer.importRecipe(json: Self.json)
        }
        #expect(recipes.recipe.calls == ["Pancakes"])
        #expect(recipes.save.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
    }

    @Test(arguments: [
        ("not json", ImportError.invalidJSON),
        (#"{"title": "  ", "ingredients": [{"name": "egg", "unit": "pc", "quantity": 1}]}"#, ImportError.missingTitle),
        (#"{"title": "Toast", "ingredients": []}"#, ImportError.noIngredients),
    ])
    func aPayloadItCannotUseOpensNoTransaction(json: String, error: ImportError) throws {
        let importer = RecipeImporter(db: db, recipeRepository: recipes, ingredientRepository: ingredients)

        #expect(throws: error) { try importer.importRecipe(json: json) }
        #expect(db.statistics == MockDB.Statistics())
    }
}
