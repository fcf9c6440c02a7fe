import Foundation
import GRDB
import TransactionKit

/// A legacy struct.
package struct Clock: Sendable {
    package init() {}

    /// The time of the transaction.
    package func now(transaction: StoreTransaction) -> Date {
        Date(timeIntervalSince1970: 0)
    }
}

/// A legacy enum of static members.
package enum Counters {
    private static let prefixStorage = LockedValue("item")

    /// The next value of a counter.
    package static func next(_ key: String, transaction: StoreTransaction) throws -> Int64 {
        try transaction.database.execute(
            sql: "INSERT INTO counter (key, value) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET value = value + 1",
            arguments: [key])
        return try Int64.fetchOne(transaction.database, sql: "SELECT value FROM counter WHERE key = ?", arguments: [key])!
    }

    /// A settable static property.
    package static var prefix: String {
        get { prefixStorage.withLock { $0 } }
        set { prefixStorage.withLock { $0 = newValue } }
    }
}
