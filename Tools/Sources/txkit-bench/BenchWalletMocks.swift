import TransactionKit

/// The mock finders of the `mockdb_manager_tests` benchmark, written the way
/// a unit test would write them: stubbed values, recorded calls, and a loud
/// failure for any call nobody stubbed.
final class BenchWalletFinderMock: BenchWalletFinding {
    var balances: [Int64: Int64] = [:]
    private(set) var writes: [(account: Int64, balance: Int64)] = []

    func balance(of account: Int64, _ tx: DBReadTransaction) throws -> Int64 {
        tx.preconditionActive()
        guard let balance = balances[account] else {
            fatalError("BenchWalletFinderMock: unimplemented balance(of: \(account)); stub balances[\(account)]")
        }
        return balance
    }

    func setBalance(_ balance: Int64, of account: Int64, _ tx: DBWriteTransaction) throws {
        tx.preconditionActive()
        balances[account] = balance
        writes.append((account, balance))
    }
}

/// The ledger mock: keeps entries in memory.
final class BenchLedgerFinderMock: BenchLedgerFinding {
    private(set) var recorded: [BenchWalletManager.LedgerEntry] = []
    private(set) var auditCount = 0
    var stubbedEntries: [Int64: [BenchWalletManager.LedgerEntry]]?

    func record(_ entry: BenchWalletManager.LedgerEntry, _ tx: DBWriteTransaction) throws -> Int64 {
        tx.preconditionActive()
        recorded.append(entry)
        return Int64(recorded.count)
    }

    func entries(of account: Int64, _ tx: DBReadTransaction) throws -> [BenchWalletManager.LedgerEntry] {
        tx.preconditionActive()
        guard let stubbedEntries else {
            fatalError("BenchLedgerFinderMock: unimplemented entries(of:); set stubbedEntries")
        }
        return stubbedEntries[account] ?? []
    }

    func audit(_ tx: DBWriteTransaction) throws {
        tx.preconditionActive()
        auditCount += 1
    }
}
