/// Carries a transaction into the `@Sendable` closure of an async backend
/// call. Transactions are not `Sendable`; this is sound because the engine
/// hands the transaction over in strict happens-before order (see
/// DBReadTransaction+Lifecycle.swift) and never uses it concurrently.
struct TransactionHandoff<Transaction: DBReadTransaction>: @unchecked Sendable {
    let transaction: Transaction

    init(_ transaction: Transaction) { self.transaction = transaction }
}
