import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `ReconciliationService` (an actor) after `txkit migrate`: the entries and
/// the balance it compares them with come from one read of a `MockDB`,
/// through the generated `ReconciliationService.Mocks.Database`.
struct ReconciliationServiceMockDBTests {
    let db = MockDB()
    let dataAccess = ReconciliationService.Mocks.Database()

    static func entry(_ id: Int64, _ date: String, _ amountCents: Int64) -> Transaction {
        Transaction(id: id, accountId: 1, date: date, amountCents: amountCents, payee: "Payee \(id)")
    }

    @Test func linesAreMatchedByAmountWithinTheToleranceFromOneRead() async throws {
        dataAccess.entries.returns([
            Self.entry(1, "2024-02-28", -700),   // pulled in by the tolerance only
            Self.entry(2, "2024-03-02", -4_000),
            Self.entry(3, "2024-03-10", 250_000),
            Self.entry(4, "2024-03-20", -1_200),
        ])
        dataAccess.balance.returns(244_800)
        let service = ReconciliationService(db: db, toleranceDays: 2, dataAccess: dataAccess)

        let report = try await service.reconcile(
            accountId: 1,
            statement: [
                StatementLine(date: "2024-03-11", amountCents: 250_000, text: "SALARY"),
                StatementLine(date: "2024-03-04", amountCents: -4_000, text: "GROCER"),
                StatementLine(date: "2024-03-15", amountCents: -999, text: "UNKNOWN"),
            ],
            from: "2024-03-01", through: "2024-03-31", closingBalanceCents: 244_001)

        #expect(report.matchedTransactionIds == [2, 3])
        #expect(report.missingFromLedger.map(\.text) == ["UNKNOWN"])
        #expect(report.notOnStatement.map(\.id) == [4])
        #expect(report.differenceCents == -799)
        #expect(!report.isBalanced)
        #expect(dataAccess.entries.calls.map { "\($0.accountId) \($0.start) \($0.end)" } == ["1 2024-02-28 2024-04-02"])
        #expect(dataAccess.balance.calls.map { "\($0.accountId) \($0.day)" } == ["1 2024-03-31"])
        let read = try #require(db.transactionLog.sharedTransaction(of: dataAccess.entries, dataAccess.balance))
        #expect(read.kind == .read)
        #expect(db.transactionLog.transactions == [read])
    }

    @Test func matchedEntriesAreMarkedClearedInOneCommittedWrite() async throws {
        dataAccess.markCleared.stub { ids in ids.count }
        let service = ReconciliationService(db: db, dataAccess: dataAccess)
        let report = ReconciliationReport(matchedTransactionIds: [3, 5], missingFromLedger: [], notOnStatement: [],
                                          ledgerBalanceCents: 0, statementBalanceCents: 0)

        #expect(try await service.markCleared(report) == 2)
        #expect(dataAccess.markCleared.calls == [[3, 5]])
        #expect(dataAccess.markCleared.ranOnlyInCommittedWrites)
    }
}
