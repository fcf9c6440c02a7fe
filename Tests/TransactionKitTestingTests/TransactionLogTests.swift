import Dispatch
import Testing
import TransactionKit
import TransactionKitTesting

/// A finder, a notifier and a non-`Sendable` cache: calls across three
/// mocks, with and without a transaction parameter.
protocol LedgerFinding {
    func balance(_ account: Int, _ tx: DBReadTransaction) throws -> Int
    func post(_ account: Int, amount: Int, _ tx: DBWriteTransaction) throws
}

final class LedgerFinderMock: LedgerFinding, Sendable {
    let balance = MockMethod<Int, Int>()
    let post = MockMethod<(account: Int, amount: Int), Void>()

    func balance(_ account: Int, _ tx: DBReadTransaction) throws -> Int {
        try balance.call(account, tx, in: self)
    }

    func post(_ account: Int, amount: Int, _ tx: DBWriteTransaction) throws {
        try post.call((account, amount), tx, in: self)
    }
}

final class LedgerNotifierMock: Sendable {
    let notify = MockMethod<Int, Void>()

    /// No transaction parameter: the log finds the one running around it.
    func notify(_ account: Int) {
        notify.callWithoutThrowing(account, in: self)
    }
}

final class LedgerCacheMock {
    let invalidate = NonSendableMockMethod<Int, Void>()

    func invalidate(_ account: Int) {
        invalidate.callWithoutThrowing(account, in: self)
    }
}

struct LedgerFailure: Error, Equatable {}

@Suite("TransactionLog: what a MockDB test sees of the transaction")
struct TransactionLogTests {
    let db = MockDB()
    let finder = LedgerFinderMock()
    let notifier = LedgerNotifierMock()

    init() {
        finder.balance.returns(10)
        finder.post.returns()
        notifier.notify.returns()
    }

    @Test func transactionLogRecordsKindOutcomeAndCallSite() throws {
        _ = try db.read { tx in try finder.balance(1, tx) }
        try db.write { tx in try finder.post(1, amount: 5, tx) }

        let log = db.transactionLog
        #expect(log.transactions.map(\.kind) == [.read, .write])
        #expect(log.transactions.map(\.outcome) == [.ended, .committed])
        #expect(log.transactions.map(\.fileID) == ["TransactionKitTestingTests/TransactionLogTests.swift", "TransactionKitTestingTests/TransactionLogTests.swift"])
        #expect(log.transactions[0].id < log.transactions[1].id)
        #expect(log.transactions.allSatisfy { !$0.isBridged && !$0.isNested && $0.error == nil })
        #expect(log.writes.first?.isCommittedWrite == true)
    }

    @Test func transactionLogTellsCallsThatShareOneTransactionFromCallsThatDoNot() throws {
        _ = try db.read { tx in (try finder.balance(1, tx), try finder.balance(2, tx)) }
        #expect(db.transactionLog.sharedTransaction(of: finder.balance)?.kind == .read)

        // A second read: the same method no longer shares one transaction.
        _ = try db.read { tx in try finder.balance(3, tx) }
        #expect(db.transactionLog.sharedTransaction(of: finder.balance) == nil)
        #expect(finder.balance.sharedTransaction == nil)
        #expect(Set(finder.balance.transactionIDs).count == 2)
        // Never called: nothing shared.
        #expect(db.transactionLog.sharedTransaction(of: finder.post) == nil)
    }

    @Test func transactionLogSharedTransactionSpansMocks() throws {
        try db.write { tx in
            _ = try finder.balance(1, tx)
            try finder.post(1, amount: 5, tx)
            notifier.notify(1)
        }
        let shared = try #require(db.transactionLog.sharedTransaction(of: finder.balance, finder.post, notifier.notify))
        #expect(shared.isCommittedWrite)
        #expect(shared.calls.map(\.member) == [finder.balance.member, finder.post.member, notifier.notify.member])
        #expect(finder.post.ranOnlyInCommittedWrites)
    }

    @Test func transactionLogOutcomeOfAThrowingWriteIsThrew() {
        #expect(throws: LedgerFailure.self) {
            try db.write { tx in
                try finder.post(1, amount: 5, tx)
                tx.addSyncCompletion { notifier.notify(1) }
                throw LedgerFailure()
            }
        }
        let write = db.transactionLog.transactions[0]
        #expect(write.outcome == .threw)
        #expect(write.isRolledBack)
        #expect(write.error == "LedgerFailure()")
        #expect(write.hooks == LoggedTransaction.Hooks(syncCompletions: 1))
        #expect(db.transactionLog.callsInRolledBackTransactions.map(\.member) == [finder.post.member])
        #expect(!finder.post.neverRanInRolledBackTransactions)
        #expect(!finder.post.ranOnlyInCommittedWrites)
        #expect(notifier.notify.callCount == 0)
    }

    @Test func transactionLogOutcomeOfARollBackOnPurposeIsRolledBack() throws {
        let value = try db.writeOrRollBack { tx -> DBWriteOutcome<Int> in
            try finder.post(1, amount: 5, tx)
            return .rollBack(7)
        }
        #expect(value == 7)
        let write = db.transactionLog.transactions[0]
        #expect(write.outcome == .rolledBack)
        #expect(write.isRolledBack)
        #expect(write.error == nil)
    }

    @Test func transactionLogOutcomeOfAFailedCommitIsRolledBackWithTheError() {
        db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "full"))
        #expect(throws: DBError.self) {
            try db.write { tx in try finder.post(1, amount: 5, tx) }
        }
        let write = db.transactionLog.transactions[0]
        #expect(write.outcome == .rolledBack)
        #expect(write.error != nil)
        #expect(finder.post.callRecords.map(\.transaction?.outcome) == [.rolledBack])
    }

    @Test func transactionLogOutcomeOfAThrowingReadIsThrew() {
        finder.balance.fails(with: LedgerFailure())
        #expect(throws: LedgerFailure.self) {
            try db.read { tx in try finder.balance(1, tx) }
        }
        #expect(db.transactionLog.transactions.map(\.outcome) == [.threw])
        #expect(!db.transactionLog.transactions[0].isRolledBack)
    }

    @Test func transactionLogRecordsHooks() throws {
        try db.write { tx in
            tx.addFinalization(key: "b") { _ in }
            tx.addFinalization(key: "a") { _ in }
            tx.addFinalization(key: "b") { _ in }
            tx.addSyncCompletion {}
            tx.addAsyncCompletion(on: DispatchQueue.global()) {}
        }
        #expect(
            db.transactionLog.transactions[0].hooks
                == LoggedTransaction.Hooks(finalizations: ["b", "a"], syncCompletions: 1, asyncCompletions: 1))
    }

    @Test func transactionLogOrdersCallsAcrossMocks() throws {
        let cache = LedgerCacheMock()
        cache.invalidate.returns()
        try db.write { tx in
            try finder.post(1, amount: 5, tx)
            cache.invalidate(1)
            notifier.notify(1)
        }
        _ = try db.read { tx in try finder.balance(1, tx) }

        let log = db.transactionLog
        #expect(
            log.calls.map(\.member)
                == [finder.post.member, cache.invalidate.member, notifier.notify.member, finder.balance.member])
        #expect(log.calls(to: notifier.notify, finder.post).map(\.member) == [finder.post.member, notifier.notify.member])
        #expect(log.calls.map(\.transaction) == [log.writes[0].id, log.writes[0].id, log.writes[0].id, log.reads[0].id])
        #expect(cache.invalidate.transactions.map { $0?.kind } == [.write])
        #expect(log.calls[0].member.name == "LedgerFinderMock.post(_:amount:_:)")
    }

    @Test func transactionLogCallOutsideATransactionHasNone() {
        notifier.notify(1)
        #expect(notifier.notify.callRecords.map(\.transactionID) == [nil])
        #expect(db.transactionLog.calls.isEmpty)
    }

    @Test func transactionLogCallInACompletionRunsOutsideTheTransaction() throws {
        try db.write { tx in
            try finder.post(1, amount: 5, tx)
            tx.addSyncCompletion { notifier.notify(1) }
        }
        #expect(notifier.notify.callCount == 1)
        #expect(notifier.notify.transactionIDs == [nil])
        #expect(db.transactionLog.calls.map(\.member) == [finder.post.member])
    }

    @Test func transactionLogNamesTheEnclosingTransactionOfAnotherMockDB() throws {
        let archive = MockDB(label: "archive")
        try db.write { _ in
            _ = try archive.read { tx in try finder.balance(1, tx) }
        }
        let outer = db.transactionLog.transactions[0]
        let inner = archive.transactionLog.transactions[0]
        #expect(inner.enclosing == outer.id)
        #expect(inner.isNested)
        #expect(!outer.isNested)
        #expect(archive.transactionLog.calls.map(\.member) == [finder.balance.member])
        #expect(db.transactionLog.calls.isEmpty)
    }

    @Test func transactionLogRecordsAsyncBlocksAndCallsInThem() async throws {
        try await db.write { tx async throws in
            try finder.post(1, amount: 5, tx)
            await Task.yield()
            notifier.notify(1)
        }
        let shared = try #require(db.transactionLog.sharedTransaction(of: finder.post, notifier.notify))
        #expect(shared.isCommittedWrite)
    }

    @Test func transactionLogMockCallCarriesTheLiveOutcome() throws {
        var seenWhileRunning: LoggedTransaction.Outcome?
        try db.write { tx in
            try finder.post(1, amount: 5, tx)
            seenWhileRunning = finder.post.callRecords.first?.transaction?.outcome
        }
        #expect(seenWhileRunning == .running)
        #expect(finder.post.callRecords.first?.transaction?.outcome == .committed)
        #expect(finder.post.callRecords.first?.arguments.amount == 5)
    }

    @Test func transactionLogIsEmptiedByReset() throws {
        _ = try db.read { tx in try finder.balance(1, tx) }
        db.resetTransactionLog()
        #expect(db.transactionLog.transactions.isEmpty && db.transactionLog.calls.isEmpty)
        #expect(finder.balance.transactions == [nil])
        #expect(finder.balance.transactionIDs.count == 1)
    }

    @Test func transactionLogIdentityMatchesTheTransactionsOwn() throws {
        let id = try db.write { tx in
            try finder.post(1, amount: 5, tx)
            return tx.transactionID()
        }
        #expect(db.transactionLog.transactions.map(\.id) == [id])
        #expect(finder.post.transactionIDs == [id])
    }
}

@Suite("TransactionLog: a MockDB that logs nothing")
struct TransactionLogDisabledTests {
    @Test func transactionLogStaysEmptyWhenLoggingIsOff() throws {
        let db = MockDB(logsTransactions: false)
        let finder = LedgerFinderMock()
        finder.post.returns()
        try db.write { tx in try finder.post(1, amount: 5, tx) }
        _ = try db.read { _ in }
        #expect(db.transactionLog.transactions.isEmpty)
        #expect(db.transactionLog.calls.isEmpty)
        // The mock still knows its call's transaction, as on SQLiteDB.
        #expect(finder.post.transactions.map { $0?.outcome } == [.committed])
        #expect(db.statistics == MockDB.Statistics(reads: 1, writes: 1, commits: 1))
    }
}

/// A mock whose members take closures: the two `…WithClosures` method
/// types log their calls like the others.
final class LedgerVisitorMock {
    let visit = MockMethodWithClosures<Int, (Int) -> Void, Void>()
    let visitLocally = NonSendableMockMethodWithClosures<Int, (Int) -> Void, Void>()

    func visit(_ account: Int, _ body: @escaping (Int) -> Void, _ tx: DBReadTransaction) throws {
        try visit.call(account, closures: body, tx, in: self)
    }

    func visitLocally(_ account: Int, _ body: @escaping (Int) -> Void, _ tx: DBReadTransaction) throws {
        try visitLocally.call(account, closures: body, tx, in: self)
    }
}

@Suite("TransactionLog: every mock method type")
struct TransactionLogMethodTypesTests {
    @Test func transactionLogRecordsCallsOfMethodsWithClosures() throws {
        let db = MockDB()
        let visitor = LedgerVisitorMock()
        visitor.visit.stub { account, body in body(account) }
        visitor.visitLocally.stub { account, body in body(account) }
        try db.read { tx in
            try visitor.visit(1, { _ in }, tx)
            try visitor.visitLocally(2, { _ in }, tx)
        }
        let read = try #require(db.transactionLog.sharedTransaction(of: visitor.visit, visitor.visitLocally))
        #expect(read.kind == .read)
        #expect(read.calls.map(\.member) == [visitor.visit.member, visitor.visitLocally.member])
        #expect(visitor.visit.callRecords.map(\.arguments) == [1])
        #expect(visitor.visitLocally.callRecords.map(\.transaction?.outcome) == [.ended])
    }
}
