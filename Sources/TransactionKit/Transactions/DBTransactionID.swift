/// The identity of one transaction: unique in the process, never reused.
///
/// ```swift
/// try db.write { tx in
///     let id = tx.transactionID()
///     try messages.insert(message, tx)     // a spy finder may record `tx.transactionID()`
///     tx.addSyncCompletion { print("committed \(id)") }
/// }
/// ```
///
/// Two calls that received transactions with equal identities ran in one
/// transaction, so saw one snapshot (and, in a write, committed or rolled
/// back together). `MockDB`'s transaction log names its transactions by
/// this identity; on other databases it is assigned the first time
/// ``DBReadTransaction/transactionID(file:line:)`` is asked for, so that a database pays
/// nothing for it while nobody asks.
///
/// Identities compare in the order they were assigned. Their numbers are
/// process-wide: a test compares identities with each other, never with a
/// literal number.
public struct DBTransactionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, unique in the process.
    package let rawValue: UInt64

    package init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    private static let counter = LockedValue<UInt64>(0)

    /// A new identity, greater than every identity assigned before.
    package static func next() -> DBTransactionID {
        DBTransactionID(rawValue: counter.withLock { value in
            value &+= 1
            return value
        })
    }

    public static func < (lhs: DBTransactionID, rhs: DBTransactionID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `tx#` and the number, as in test failure messages.
    public var description: String { "tx#\(rawValue)" }
}
