import GRDB

// Members declared away from the type, one of them in an `#if` block.
extension ItemStore {
    /// An `async` member without a transaction.
    package func warmUp() async -> Bool {
        true
    }

    /// Named like a write, read by configuration (`readMembers`).
    package func touchCount(transaction: StoreTransaction) throws -> Int {
        try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM item") ?? 0
    }

    #if DEBUG || !DEBUG
    /// A member inside `#if`, with `@available`.
    @available(macOS 15, iOS 18, *)
    package func modernCount(transaction: StoreTransaction) throws -> Int {
        try Int.fetchOne(transaction.database, sql: "SELECT COUNT(*) FROM item") ?? 0
    }
    #endif

    /// A `@MainActor` member.
    @MainActor
    package func displayName(for item: Item) -> String {
        item.name.uppercased()
    }
}
