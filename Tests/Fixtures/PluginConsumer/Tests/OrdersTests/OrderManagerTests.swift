import Orders
import Testing
import TransactionKitSQLite

/// The manager on a real database, before and after `txkit shim --apply`.
@Test func placingAnOrderCountsIt() throws {
    let manager = try OrderManager(db: SQLiteDB.inMemory(migrator: OrderSchema.migrator))
    #expect(try manager.place("tea") == 1)
    #expect(try manager.place("milk") == 2)
    #expect(try manager.orderCount() == 2)
}
