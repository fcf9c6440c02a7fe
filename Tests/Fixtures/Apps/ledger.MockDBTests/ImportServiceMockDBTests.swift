import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `ImportService` after `txkit migrate`: CSV and category imports on a
/// `MockDB`, each in one write, with the inserts and `db.changesCount`
/// behind the generated `ImportService.Mocks.Database`.
struct ImportServiceMockDBTests {
    let db = MockDB()
    let dataAccess = ImportService.Mocks.Database()

    var service: ImportService { ImportService(db: db, dataAccess: dataAccess) }

    static let csv = """
        externalId,date,payee,amount,memo
        b-1,2024-03-01,"Market, Downtown",-12.5,weekly
        b-2,2024-03-02,Salary,2500.00
        b-3,2024-13-02,Broken,1.00
        b-4,2024-03-03,Bakery,not money

        """

    @Test func parsedRowsAreInsertedAndDuplicatesCountedInOneCommittedWrite() async throws {
        dataAccess.accountExists.returns(true)
        dataAccess.insertTransaction.returns()
        // The second row was imported before: its insert changes nothing.
        let dataAccess = self.dataAccess
        dataAccess.changesCount.stub { _ in dataAccess.insertTransaction.callCount == 2 ? 0 : 1 }

        let summary = try await service.importCSV(Self.csv, accountId: 3)

        #expect(summary == ImportSummary(inserted: 1, duplicates: 1, rejectedLines: [4, 5]))
        #expect(dataAccess.accountExists.calls == [3])
        #expect(dataAccess.insertTransaction.calls.map(\.externalId) == ["b-1", "b-2"])
        #expect(dataAccess.insertTransaction.calls.map(\.payee) == ["Market, Downtown", "Salary"])
        #expect(dataAccess.insertTransaction.calls.map(\.amountCents) == [-1_250, 250_000])
        #expect(dataAccess.insertTransaction.calls.map(\.memo) == ["weekly", nil])
        #expect(dataAccess.insertTransaction.calls.allSatisfy { $0.accountId == 3 })
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.accountExists, dataAccess.insertTransaction, dataAccess.changesCount))
        #expect(write.isCommittedWrite)
    }

    @Test func anUnknownAccountImportsNothing() async throws {
        dataAccess.accountExists.returns(false)

        await #expect(throws: LedgerError.accountNotFound(3)) {
            try await service.importCSV(Self.csv, accountId: 3)
        }
        #expect(dataAccess.insertTransaction.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
    }

    @Test func categoriesAreImportedOneByOneInOneCommittedWrite() async throws {
        dataAccess.importCategories.stub { name, result in
            var result = result
            if name == "Food" { result.existing += 1 } else { result.created += 1 }
            return result
        }

        let result = try await service.importCategories(["Rent", "Food", "Travel"])

        #expect(result == CategoryImportResult(created: 2, existing: 1))
        #expect(dataAccess.importCategories.calls.map(\.name) == ["Rent", "Food", "Travel"])
        #expect(dataAccess.importCategories.calls.map(\.result.created) == [0, 1, 1])
        #expect(dataAccess.importCategories.ranOnlyInCommittedWrites)
        #expect(db.statistics == MockDB.Statistics(writes: 1, commits: 1))
    }
}
