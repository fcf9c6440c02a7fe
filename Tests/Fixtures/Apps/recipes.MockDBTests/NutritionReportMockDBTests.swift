import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import RecipesCore

/// `NutritionReport` after `txkit migrate`: its raw SQL behind the generated
/// `NutritionReport.Mocks.Database`, each report in one read of a `MockDB`.
struct NutritionReportMockDBTests {
    let db = MockDB()
    let dataAccess = NutritionReport.Mocks.Database()

    var report: NutritionReport { NutritionReport(db: db, dataAccess: dataAccess) }

    @Test func caloriesPerRecipeComeFromOneRead() throws {
        let rows = [RecipeCalories(recipeId: 1, title: "Soup", totalCalories: 800, caloriesPerServing: 200)]
        dataAccess.caloriesPerRecipe.returns(rows)

        #expect(try report.caloriesPerRecipe() == rows)
        #expect(dataAccess.caloriesPerRecipe.callCount == 1)
        #expect(dataAccess.caloriesPerRecipe.sharedTransaction?.kind == .read)
    }

    @Test func dailyCaloriesAreAskedForTheGivenDays() throws {
        dataAccess.dailyCalories.returns(["2024-03-04": 1_250, "2024-03-05": 900])

        let daily = try report.dailyCalories(from: "2024-03-04", to: "2024-03-05")

        #expect(daily == ["2024-03-04": 1_250, "2024-03-05": 900])
        #expect(dataAccess.dailyCalories.calls.map { [$0.startDay, $0.endDay] } == [["2024-03-04", "2024-03-05"]])
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }
}
