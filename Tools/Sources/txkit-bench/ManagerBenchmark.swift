import Synchronization
import TransactionKit
import TransactionKitTesting

/// The `mockdb_manager_tests` entry: what a unit-test suite of a manager
/// costs without its test runner.
///
/// One operation is a suite of 1,000 "tests". Each test does what a Swift
/// Testing test of ``BenchWalletManager`` would do: make a fresh `MockDB`
/// and fresh mock finders, stub them, call one manager method, and check the
/// result, the mocks' records and the `MockDB` counters. The tests cycle
/// through a deposit, a transfer, a refused transfer (rolled back) and a
/// statement read. A failed check stops the benchmark.
enum ManagerBenchmark {
    /// Counts completions; a class so that a `@Sendable` closure can hold it.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Tests per suite.
    static let testCount = 1_000

    static var entry: BenchEntry {
        BenchEntry(
            name: "mockdb_manager_tests",
            note: "ns per suite of 1,000 manager unit tests (fresh MockDB + mock finders each, deposit / transfer / refused transfer / statement, results checked)",
            variants: [
                BenchVariant(name: "mockdb") { iterations in
                    for _ in 0..<iterations {
                        try runSuite()
                    }
                }
            ])
    }

    /// Runs the 1,000 tests once.
    static func runSuite() throws {
        for index in 0..<testCount {
            switch index % 4 {
            case 0: try depositTest(Int64(index))
            case 1: try transferTest(Int64(index))
            case 2: try refusedTransferTest(Int64(index))
            default: try statementTest(Int64(index))
            }
        }
    }

    private static func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        if !condition { throw BenchFailure("mockdb_manager_tests: \(what())") }
    }

    private static func makeManager(
        _ db: MockDB,
        _ wallets: BenchWalletFinderMock,
        _ ledger: BenchLedgerFinderMock,
        _ notified: Counter
    ) -> BenchWalletManager {
        BenchWalletManager(db: db, wallets: wallets, ledger: ledger) { _ in
            notified.value.add(1, ordering: .relaxed)
        }
    }

    private static func depositTest(_ seed: Int64) throws {
        let db = MockDB()
        let wallets = BenchWalletFinderMock()
        let ledger = BenchLedgerFinderMock()
        let notified = Counter()
        wallets.balances[7] = seed
        let balance = try makeManager(db, wallets, ledger, notified).deposit(25, to: 7)
        try expect(balance == seed + 25, "deposit returned \(balance)")
        try expect(wallets.balances[7] == seed + 25, "balance not written")
        try expect(ledger.recorded == [.init(account: 7, amount: 25)], "ledger \(ledger.recorded)")
        try expect(notified.value.load(ordering: .relaxed) == 1, "no completion")
        try expect(db.commitCount == 1 && db.writeCount == 1, "counts \(db.statistics)")
    }

    private static func transferTest(_ seed: Int64) throws {
        let db = MockDB()
        let wallets = BenchWalletFinderMock()
        let ledger = BenchLedgerFinderMock()
        let notified = Counter()
        wallets.balances = [1: 100 + seed, 2: 5]
        try makeManager(db, wallets, ledger, notified).transfer(40, from: 1, to: 2)
        try expect(wallets.balances == [1: 60 + seed, 2: 45], "balances \(wallets.balances)")
        try expect(ledger.recorded.count == 2 && ledger.auditCount == 1, "ledger not audited")
        try expect(notified.value.load(ordering: .relaxed) == 1, "no completion")
        try expect(db.commitCount == 1, "counts \(db.statistics)")
    }

    private static func refusedTransferTest(_ seed: Int64) throws {
        let db = MockDB()
        let wallets = BenchWalletFinderMock()
        let ledger = BenchLedgerFinderMock()
        let notified = Counter()
        wallets.balances = [1: 10, 2: seed]
        do {
            try makeManager(db, wallets, ledger, notified).transfer(40, from: 1, to: 2)
            throw BenchFailure("mockdb_manager_tests: a transfer beyond the balance succeeded")
        } catch let error as BenchWalletManager.InsufficientFunds {
            try expect(error == .init(account: 1, balance: 10, requested: 40), "error \(error)")
        }
        try expect(wallets.writes.isEmpty && ledger.recorded.isEmpty, "a refused transfer wrote")
        try expect(notified.value.load(ordering: .relaxed) == 0 && ledger.auditCount == 0, "hooks ran after rollback")
        try expect(db.rollbackCount == 1 && db.commitCount == 0, "counts \(db.statistics)")
    }

    private static func statementTest(_ seed: Int64) throws {
        let db = MockDB()
        let wallets = BenchWalletFinderMock()
        let ledger = BenchLedgerFinderMock()
        let notified = Counter()
        wallets.balances[3] = seed
        ledger.stubbedEntries = [3: [.init(account: 3, amount: seed)]]
        let statement = try makeManager(db, wallets, ledger, notified).statement(of: 3)
        try expect(statement.balance == seed && statement.entries.count == 1, "statement \(statement)")
        try expect(db.readCount == 1 && db.writeCount == 0, "counts \(db.statistics)")
    }
}
