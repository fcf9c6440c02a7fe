import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `TransferService` (an actor) after `txkit migrate`: a transfer and its two
/// legs in one write of a `MockDB`, rolled back whole when the source would
/// go negative; the inserts behind the generated
/// `TransferService.Mocks.Database`.
struct TransferServiceMockDBTests {
    let db = MockDB()
    let dataAccess = TransferService.Mocks.Database()

    var service: TransferService { TransferService(db: db, dataAccess: dataAccess) }

    static let checking = Account(id: 1, name: "Checking", kind: .checking, openingBalanceCents: 0, openedOn: "2024-01-01")
    static let savings = Account(id: 2, name: "Savings", kind: .savings, openingBalanceCents: 0, openedOn: "2024-01-01")
    static let card = Account(id: 3, name: "Card", kind: .creditCard, openingBalanceCents: 0, openedOn: "2024-01-01")

    func stubAccountsAndInserts(balanceAfterDebit: Int64) {
        dataAccess.requireAccount.stub { id in [Self.checking, Self.savings, Self.card].first { $0.id == id }! }
        dataAccess.insertTransfer.stub { arguments in
            Transfer(id: 7, fromAccountId: arguments.sourceId, toAccountId: arguments.destinationId,
                     amountCents: arguments.amountCents, date: arguments.date, memo: arguments.memo)
        }
        dataAccess.insertTransaction.returns()
        dataAccess.balance.returns(balanceAfterDebit)
        dataAccess.insertTransactionInTransfer.returns()
    }

    @Test func aTransferAndBothLegsCommitTogether() async throws {
        stubAccountsAndInserts(balanceAfterDebit: 500)

        let transfer = try await service.transfer(from: 1, to: 2, amountCents: 1_000, on: "2024-03-05", memo: "rainy day")

        #expect(transfer.id == 7 && transfer.fromAccountId == 1 && transfer.toAccountId == 2 && transfer.amountCents == 1_000)
        #expect(dataAccess.requireAccount.calls == [1, 2])
        #expect(dataAccess.insertTransaction.calls.map { "\($0.sourceId) \($0.amountCents) \($0.destination.name) \($0.transfer.id ?? 0)" } == ["1 1000 Savings 7"])
        #expect(dataAccess.balance.calls == [1])
        #expect(dataAccess.insertTransactionInTransfer.calls.map { "\($0.destinationId) \($0.source.name) \($0.memo ?? "")" } == ["2 Checking rainy day"])
        // The debit is in before the balance is read, and the credit after.
        let order = db.transactionLog.calls(to: dataAccess.insertTransfer, dataAccess.insertTransaction, dataAccess.balance, dataAccess.insertTransactionInTransfer)
        #expect(order.map(\.member.name) == [
            dataAccess.insertTransfer.member.name, dataAccess.insertTransaction.member.name,
            dataAccess.balance.member.name, dataAccess.insertTransactionInTransfer.member.name,
        ])
        let write = try #require(db.transactionLog.sharedTransaction(
            of: dataAccess.requireAccount, dataAccess.insertTransfer, dataAccess.insertTransaction,
            dataAccess.balance, dataAccess.insertTransactionInTransfer))
        #expect(write.isCommittedWrite)
    }

    @Test func aSourceThatWouldGoNegativeRollsTheTransferBack() async throws {
        stubAccountsAndInserts(balanceAfterDebit: -300)

        await #expect(throws: LedgerError.insufficientFunds(accountId: 1, availableCents: 700, requestedCents: 1_000)) {
            try await service.transfer(from: 1, to: 2, amountCents: 1_000, on: "2024-03-05")
        }
        #expect(dataAccess.insertTransactionInTransfer.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
        #expect(dataAccess.insertTransfer.transactions.compactMap { $0?.isRolledBack } == [true])
    }

    @Test func aCreditCardMayGoNegative() async throws {
        stubAccountsAndInserts(balanceAfterDebit: -300)

        let transfer = try await service.transfer(from: 3, to: 1, amountCents: 1_000, on: "2024-03-05")

        #expect(transfer.fromAccountId == 3)
        #expect(dataAccess.insertTransactionInTransfer.ranOnlyInCommittedWrites)
    }

    @Test func anArchivedAccountIsRefused() async throws {
        let archived = Account(id: 2, name: "Savings", kind: .savings, openingBalanceCents: 0, archived: true, openedOn: "2024-01-01")
        dataAccess.requireAccount.stub { id in id == 2 ? archived : Self.checking }

        await #expect(throws: LedgerError.accountArchived(2)) {
            try await service.transfer(from: 1, to: 2, amountCents: 100, on: "2024-03-05")
        }
        #expect(dataAccess.insertTransfer.callCount == 0)
    }

    @Test func invalidRequestsOpenNoTransaction() async throws {
        await #expect(throws: LedgerError.invalidAmount("0")) {
            try await service.transfer(from: 1, to: 2, amountCents: 0, on: "2024-03-05")
        }
        await #expect(throws: LedgerError.sameAccount) {
            try await service.transfer(from: 1, to: 1, amountCents: 100, on: "2024-03-05")
        }
        await #expect(throws: LedgerError.invalidDate("March 5")) {
            try await service.transfer(from: 1, to: 2, amountCents: 100, on: "March 5")
        }
        #expect(db.statistics == MockDB.Statistics())
    }

    @Test func transfersOfAnAccountAreRead() async throws {
        let transfer = Transfer(id: 7, fromAccountId: 1, toAccountId: 2, amountCents: 100, date: "2024-03-05")
        dataAccess.transfers.returns([transfer])

        #expect(try await service.transfers(involving: 2) == [transfer])
        #expect(dataAccess.transfers.calls == [2])
        #expect(dataAccess.transfers.sharedTransaction?.kind == .read)
    }
}
