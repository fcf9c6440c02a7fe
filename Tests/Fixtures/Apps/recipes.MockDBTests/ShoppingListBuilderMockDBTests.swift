import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import RecipesCore

/// `ShoppingListBuilder` after `txkit migrate`, on a `MockDB`: its raw SQL
/// behind the generated `ShoppingListBuilder.Mocks.Database`, the list
/// through a `txkit mock` of the app's `ShoppingListRepository`.
struct ShoppingListBuilderMockDBTests {
    let db = MockDB()
    let shoppingList = ShoppingListRepositoryMock()
    let dataAccess = ShoppingListBuilder.Mocks.Database()

    var builder: ShoppingListBuilder {
        ShoppingListBuilder(db: db, shoppingList: shoppingList, dataAccess: dataAccess)
    }

    static let needs = [
        IngredientNeed(ingredientId: 3, name: "rice", unit: "g", required: 137, inPantry: 0),
        IngredientNeed(ingredientId: 1, name: "egg", unit: "pc", required: 2.5, inPantry: 1),
        IngredientNeed(ingredientId: 2, name: "milk", unit: "ml", required: 200, inPantry: 500),
    ]

    @Test func needsAreReadInOneReadTransaction() throws {
        dataAccess.needs.returns(Self.needs)

        let needs = try builder.needs(from: "2024-03-04", to: "2024-03-10")

        #expect(needs == Self.needs)
        #expect(dataAccess.needs.calls.map { [$0.startDay, $0.endDay] } == [["2024-03-04", "2024-03-10"]])
        let read = try #require(dataAccess.needs.sharedTransaction)
        #expect(read.kind == .read)
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }

    @Test func rebuildingAddsWhatIsMissingByNameRoundedUpToWhatShopsSell() throws {
        dataAccess.needs.returns(Self.needs)
        shoppingList.removeUncheckedCall.returns(4)
        shoppingList.add.stub { item in
            var saved = item
            saved.id = item.ingredientId + 100
            return saved
        }
        let now = Date(timeIntervalSince1970: 1_700_000_000)

        let added = try builder.rebuild(from: "2024-03-04", to: "2024-03-10", at: now)

        // milk is in the pantry; egg (1.5 pc) and rice (137 g) are rounded up.
        #expect(added.map(\.id) == [101, 103])
        #expect(shoppingList.add.calls.map(\.ingredientId) == [1, 3])
        #expect(shoppingList.add.calls.map(\.quantity) == [2, 140])
        #expect(shoppingList.add.calls.map(\.unit) == ["pc", "g"])
        #expect(shoppingList.add.calls.allSatisfy { $0.addedAt == now && !$0.isChecked })
        #expect(shoppingList.removeUncheckedCall.callCount == 1)
    }

    @Test func checkingAnItemMarksItChecked() throws {
        shoppingList.setChecked.returns()

        try builder.check(itemId: 12)

        #expect(shoppingList.setChecked.calls.map { "\($0.checked) \($0.itemId)" } == ["true 12"])
        #expect(db.statistics == MockDB.Statistics())
    }
}
