import Testing
import TransactionKitTesting
@testable import Shop

@Test func theTotalComesFromTheFinder() throws {
    let prices = Checkout.Mocks.PriceFinder()
    prices.total.returns(250)
    let checkout = Checkout(db: MockDB(), prices: prices)
    #expect(try checkout.total(of: ["tea", "milk"]) == 250)
}
