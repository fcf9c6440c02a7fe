import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import RecipesCore

/// `MealPlanner` after `txkit migrate`, on a `MockDB`: its recipes through a
/// `txkit mock` of the app's `RecipeRepository`, its meal plans and its
/// inline record fetch through the generated shim mocks.
struct MealPlannerMockDBTests {
    let db = MockDB()
    let recipes = RecipeRepositoryMock()
    let mealPlans = MealPlanner.Mocks.GRDBMealPlanRepository()
    let dataAccess = MealPlanner.Mocks.Database()

    var planner: MealPlanner {
        MealPlanner(db: db, recipes: recipes, mealPlans: mealPlans, dataAccess: dataAccess)
    }

    static func recipe(_ id: Int64, servings: Int) -> Recipe {
        Recipe(id: id, title: "Recipe \(id)", servings: servings, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test func planningAMealTakesTheRecipesServingsWhenNoneAreGiven() throws {
        recipes.recipe.returns(Self.recipe(7, servings: 4))
        mealPlans.entry.returns(nil)
        mealPlans.add.returns()

        let entry = try planner.planMeal(recipeId: 7, on: "2024-03-04", slot: .lunch)

        #expect(entry.day == "2024-03-04" && entry.slot == .lunch && entry.recipeId == 7 && entry.servings == 4)
        #expect(recipes.recipe.calls == [7])
        #expect(mealPlans.entry.calls.map { "\($0.day) \($0.slot)" } == ["2024-03-04 lunch"])
        #expect(mealPlans.add.calls.map(\.servings) == [4])
        // The repository opens its own transactions: the planner opens none.
        #expect(db.statistics == MockDB.Statistics())
    }

    @Test func aTakenSlotIsRefusedAndNothingIsAdded() throws {
        recipes.recipe.returns(Self.recipe(7, servings: 4))
        mealPlans.entry.returns(MealPlanEntry(id: 3, day: "2024-03-04", slot: .dinner, recipeId: 9, servings: 2))
        // `add` has no stub: calling it would fail the test.

        #expect(throws: MealPlanError.slotTaken(day: "2024-03-04", slot: .dinner)) {
            try planner.planMeal(recipeId: 7, on: "2024-03-04", servings: 2)
        }
        #expect(mealPlans.add.callCount == 0)
    }

    @Test func anInvalidDayOrAnUnknownRecipeIsRefusedBeforeAnyWrite() throws {
        recipes.recipe.returns(nil)

        #expect(throws: MealPlanError.invalidDay("2024-13-40")) {
            try planner.planMeal(recipeId: 7, on: "2024-13-40")
        }
        #expect(recipes.recipe.callCount == 0)
        #expect(throws: MealPlanError.recipeNotFound(7)) {
            try planner.planMeal(recipeId: 7, on: "2024-03-04")
        }
        #expect(mealPlans.entry.callCount == 0)
    }

    @Test func aWeekIsScheduledInOneCommittedWrite() throws {
        dataAccess.fetchRecipe.stub { id in Self.recipe(id, servings: Int(id)) }
        mealPlans.deleteEntries.returns()
        mealPlans.save.returns()

        let created = try planner.scheduleWeek(recipeIds: [1, 2, 3], startingOn: "2024-02-28", slot: .breakfast)

        #expect(created.map(\.day) == ["2024-02-28", "2024-02-29", "2024-03-01"])
        #expect(created.map(\.servings) == [1, 2, 3])
        #expect(dataAccess.fetchRecipe.calls == [1, 2, 3])
        #expect(mealPlans.deleteEntries.calls.map(\.day) == ["2024-02-28", "2024-02-29", "2024-03-01"])
        #expect(mealPlans.deleteEntries.calls.allSatisfy { $0.slot == .breakfast })
        #expect(mealPlans.save.calls.map(\.recipeId) == [1, 2, 3])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.fetchRecipe, mealPlans.deleteEntries, mealPlans.save))
        #expect(write.isCommittedWrite)
        #expect(db.transactionLog.transactions == [write])
    }

    @Test func anUnknownRecipeRollsTheWholeWeekBack() throws {
        dataAccess.fetchRecipe.stub { id in id == 2 ? nil : Self.recipe(id, servings: 2) }
        mealPlans.deleteEntries.returns()
        mealPlans.save.returns()

        #expect(throws: MealPlanError.recipeNotFound(2)) {
            try planner.scheduleWeek(recipeIds: [1, 2, 3], startingOn: "2024-03-04")
        }
        #expect(dataAccess.fetchRecipe.calls == [1, 2])
        #expect(mealPlans.save.callCount == 1)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
        #expect(db.transactionLog.callsInRolledBackTransactions.count == 4)
    }

    @Test func mealsAndClearingADayGoToTheRepository() throws {
        let entry = MealPlanEntry(id: 1, day: "2024-03-04", slot: .dinner, recipeId: 7, servings: 2)
        mealPlans.plannedMeals.returns([PlannedMeal(mealPlanEntry: entry, recipe: Self.recipe(7, servings: 2))])
        mealPlans.removeEntries.returns(3)

        let meals = try planner.meals(from: "2024-03-04", to: "2024-03-10")
        let removed = try planner.clearDay("2024-03-05")

        #expect(meals.map(\.recipe.title) == ["Recipe 7"])
        #expect(mealPlans.plannedMeals.calls.map { [$0.startDay, $0.endDay] } == [["2024-03-04", "2024-03-10"]])
        #expect(removed == 3)
        #expect(mealPlans.removeEntries.calls == ["2024-03-05"])
    }
}
