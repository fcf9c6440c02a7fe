import Foundation
import Testing
import TransactionKit
import TransactionKitTesting
@testable import LedgerCore

/// `AccountService` after `txkit migrate`: its async reads and writes on a
/// `MockDB`, its records, queries and `AccountQueries` calls behind the
/// generated `AccountService.Mocks.Database`, today pinned by the app's own
/// `FixedDateProvider`.
struct AccountServiceMockDBTests {
    let db = MockDB()
    let dataAccess = AccountService.Mocks.Database()

    var service: AccountService {
        AccountService(db: db, dateProvider: FixedDateProvider(day: "2024-03-31"), dataAccess: dataAccess)
    }

    static func account(_ id: Int64, openedOn: String = "2024-01-01", openingBalanceCents: Int64 = 0) -> Account {
        Account(id: id, name: "Account \(id)", kind: .checking, openingBalanceCents: openingBalanceCents, openedOn: openedOn)
    }

    @Test func anAccountOpensTodayUnlessItSaysOtherwise() async throws {
        dataAccess.insertAccount.stub { account in
            var saved = account
            saved.id = 10
            return saved
        }

        let today = try await service.openAccount(name: "Checking", kind: .checking, openingBalanceCents: 1_000)
        let backFilled = try await service.openAccount(name: "Cash", kind: .cash, openedOn: "2020-05-01")

        #expect(today.id == 10 && today.openedOn == "2024-03-31" && today.openingBalanceCents == 1_000)
        #expect(backFilled.openedOn == "2020-05-01" && backFilled.kind == .cash)
        #expect(dataAccess.insertAccount.calls.map(\.name) == ["Checking", "Cash"])
        #expect(dataAccess.insertAccount.ranOnlyInCommittedWrites)
        #expect(db.statistics == MockDB.Statistics(writes: 2, commits: 2))
    }

    @Test func anInvalidOpeningDateOpensNoTransaction() async throws {
        await #expect(throws: LedgerError.invalidDate("2024-02-30")) {
            try await service.openAccount(name: "Checking", kind: .checking, openedOn: "2024-02-30")
        }
        #expect(db.statistics == MockDB.Statistics())
    }

    @Test func anEntryIsAddedToAnOpenAccountInOneCommittedWrite() async throws {
        dataAccess.requireAccount.returns(Self.account(1))
        dataAccess.insertTransaction.stub { arguments in
            Transaction(id: 5, accountId: arguments.accountId, date: arguments.date, amountCents: arguments.amountCents,
                        payee: arguments.payee, memo: arguments.memo)
        }

        let entry = try await service.addTransaction(accountId: 1, date: "2024-03-02", amountCents: -4_250, payee: "Grocer", memo: "weekly")

        #expect(entry.id == 5 && entry.amountCents == -4_250 && entry.memo == "weekly")
        #expect(dataAccess.requireAccount.calls == [1])
        #expect(dataAccess.insertTransaction.calls.map(\.payee) == ["Grocer"])
        let write = try #require(db.transactionLog.sharedTransaction(of: dataAccess.requireAccount, dataAccess.insertTransaction))
        #expect(write.isCommittedWrite)
    }

    @Test func anArchivedAccountTakesNoEntry() async throws {
        var archived = Self.account(1)
        archived.archived = true
        dataAccess.requireAccount.returns(archived)

        await #expect(throws: LedgerError.accountArchived(1)) {
            try await service.addTransaction(accountId: 1, date: "2024-03-02", amountCents: 100, payee: "Refund")
        }
        #expect(dataAccess.insertTransaction.callCount == 0)
        #expect(db.transactionLog.writes.map(\.isRolledBack) == [true])
    }

    @Test func summariesTakeTheBalanceOrElseTheOpeningBalanceFromOneRead() async throws {
        dataAccess.fetchAccounts.returns([Self.account(1, openingBalanceCents: 100), Self.account(2, openingBalanceCents: 50)])
        dataAccess.balances.returns([1: 250])

        let summaries = try await service.summaries()

        #expect(summaries.map(\.balanceCents) == [250, 50])
        let read = try #require(db.transactionLog.sharedTransaction(of: dataAccess.fetchAccounts, dataAccess.balances))
        #expect(read.kind == .read)
    }

    @Test func dormantAccountsCountIdleDaysFromTheLastEntryOrTheOpening() async throws {
        dataAccess.fetchAccounts.returns([Self.account(1), Self.account(2), Self.account(3, openedOn: "2024-03-20")])
        dataAccess.lastActivityDates.returns([1: "2024-03-25"])
        dataAccess.balance.stub { id in id * 100 }

        let dormant = try await service.dormantAccounts(idleDays: 30)

        // 1 moved 6 days ago, 3 opened 11 days ago: only 2 (90 days) is dormant.
        #expect(dormant.map(\.account.id) == [2])
        #expect(dormant.map(\.idleDays) == [90])
        #expect(dormant.map(\.lastActivity) == [nil])
        #expect(dormant.map(\.balanceCents) == [200])
        #expect(dataAccess.balance.calls == [2])
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }

    @Test func archivingTakesTheDormantAccountsWithNothingLeft() async throws {
        dataAccess.fetchAccounts.returns([Self.account(1), Self.account(2)])
        dataAccess.lastActivityDates.returns([:])
        dataAccess.balance.stub { id in id == 1 ? 0 : 700 }
        dataAccess.updateAccount.returns()

        let archived = try await service.archiveDormantAccounts(idleDays: 30)

        #expect(archived.map(\.id) == [1])
        #expect(archived.map(\.archived) == [true])
        #expect(dataAccess.updateAccount.calls.map(\.id) == [1])
        #expect(dataAccess.updateAccount.calls.map(\.archived) == [true])
        #expect(dataAccess.updateAccount.ranOnlyInCommittedWrites)
        #expect(db.transactionLog.transactions.map(\.kind) == [.read, .write])
    }
}
