import TransactionKit

/// A manager in the style TransactionKit is made for, small enough to read
/// at a glance: the subject of the `mockdb_manager_tests` benchmark.
///
/// It moves money between accounts through two finder protocols and never
/// looks inside a transaction.
struct BenchWalletManager {
    /// A line of an account's statement.
    struct LedgerEntry: Equatable {
        var account: Int64
        var amount: Int64
    }

    /// The balance would go negative.
    struct InsufficientFunds: Error, Equatable {
        let account: Int64
        let balance: Int64
        let requested: Int64
    }

    let db: any DB
    let wallets: any BenchWalletFinding
    let ledger: any BenchLedgerFinding
    /// Called after each committed movement (a notification, in a real app).
    let didCommit: @Sendable (Int64) -> Void

    /// Credits `amount` to `account` and returns the new balance.
    func deposit(_ amount: Int64, to account: Int64) throws -> Int64 {
        try db.write { tx in
            let balance = try wallets.balance(of: account, tx) + amount
            try wallets.setBalance(balance, of: account, tx)
            _ = try ledger.record(LedgerEntry(account: account, amount: amount), tx)
            tx.addSyncCompletion { didCommit(account) }
            return balance
        }
    }

    /// Moves `amount` from one account to another, or throws
    /// ``InsufficientFunds`` and changes nothing.
    func transfer(_ amount: Int64, from source: Int64, to destination: Int64) throws {
        try db.write { tx in
            let sourceBalance = try wallets.balance(of: source, tx)
            guard sourceBalance >= amount else {
                throw InsufficientFunds(account: source, balance: sourceBalance, requested: amount)
            }
            try wallets.setBalance(sourceBalance - amount, of: source, tx)
            try wallets.setBalance(try wallets.balance(of: destination, tx) + amount, of: destination, tx)
            _ = try ledger.record(LedgerEntry(account: source, amount: -amount), tx)
            _ = try ledger.record(LedgerEntry(account: destination, amount: amount), tx)
            tx.addFinalization(key: "ledger.audit") { tx in try ledger.audit(tx) }
            tx.addSyncCompletion { didCommit(source) }
        }
    }

    /// The account's balance and statement, read in one snapshot.
    func statement(of account: Int64) throws -> (balance: Int64, entries: [LedgerEntry]) {
        try db.read { tx in
            (try wallets.balance(of: account, tx), try ledger.entries(of: account, tx))
        }
    }
}

/// The balances finder the manager depends on.
protocol BenchWalletFinding {
    func balance(of account: Int64, _ tx: DBReadTransaction) throws -> Int64
    func setBalance(_ balance: Int64, of account: Int64, _ tx: DBWriteTransaction) throws
}

/// The ledger finder the manager depends on.
protocol BenchLedgerFinding {
    func record(_ entry: BenchWalletManager.LedgerEntry, _ tx: DBWriteTransaction) throws -> Int64
    func entries(of account: Int64, _ tx: DBReadTransaction) throws -> [BenchWalletManager.LedgerEntry]
    /// Checks, just before commit, that the transaction's entries sum to zero.
    func audit(_ tx: DBWriteTransaction) throws
}
