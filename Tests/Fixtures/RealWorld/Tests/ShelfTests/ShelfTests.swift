import Shelf
import Testing
import TransactionKitSQLite

/// The reading app's managers on a real database, through the context
/// stand-in.
@Suite struct ShelfTests {
    @Test func booksAreCatalogedPlacedLentAndLogged() throws {
        let db = try SQLiteDB.inMemory(migrator: ShelfSchema.migrator)
        let catalog = CatalogManager(db: db)
        #expect(try catalog.add(isbn: "1", title: "Dune", tags: ["sf", "classic"]) == 1)
        #expect(try catalog.add(isbn: "1", title: "Dune", tags: []) == 1)
        #expect(try catalog.tagNames(isbn: "1") == ["classic", "sf"])

        let placed = try ShelfOrganizer(db: db).place(["1", "2"], in: "Hall")
        #expect(placed.0 == ["Dune"])
        #expect(placed.1 == ["Hall"])

        let loans = LoanManager(db: db)
        #expect(try loans.lend(isbn: "1", to: "m", due: 10)?.member == "m")
        #expect(try loans.lend(isbn: "1", to: "n", due: 10) == nil)
        #expect(try loans.lend(isbn: "2", to: "n", due: 10) == nil)
        try loans.takeBack(isbn: "1")

        let stats = try ReadingStatsManager(db: db).log(minutes: 30, isbn: "1", day: 3)
        #expect(stats.book == 30)
        #expect(stats.day == 30)
        #expect(try LibraryCleanup(db: db).reset() == ["Hall"])
    }
}
