import TransactionKit

/// A ``/TransactionKit/TimeGatedBatchClock`` that moves only when a test
/// advances it: the test decides exactly where a
/// ``/TransactionKit/TimeGatedBatch`` splits its work into transactions,
/// with no sleep and no retry loop.
///
/// ```swift
/// @Test func theCleanupCommitsEveryThirdMessage() throws {
///     let db = MockDB()
///     let clock = ManualBatchClock()
///     try TimeGatedBatch.enumerateObjects(1...6, db: db, yieldTxAfter: 1, clock: clock) { id, tx in
///         try messages.delete(id, tx)
///         clock.advance(bySeconds: 0.4)
///     }
///     #expect(db.transactionLog.writes.count == 2)
/// }
/// ```
///
/// **Threads:** `Sendable`; every access takes a lock.
public final class ManualBatchClock: TimeGatedBatchClock {
    private let now: LockedValue<UInt64>

    /// Creates a clock that reads `nanoseconds` until advanced.
    ///
    /// - Parameter nanoseconds: The starting time.
    public init(nanoseconds: UInt64 = 0) {
        now = LockedValue(nanoseconds)
    }

    /// The current time, in nanoseconds.
    public var nanoseconds: UInt64 {
        now.withLock { $0 }
    }

    /// Moves the clock forward.
    ///
    /// - Parameter seconds: How far; a negative or zero amount changes
    ///   nothing (the clock never goes back).
    public func advance(bySeconds seconds: Double) {
        guard seconds > 0 else { return }
        let delta = UInt64(min(seconds, Double(UInt64.max / 2_000_000_000)) * 1_000_000_000)
        now.withLock { $0 &+= delta }
    }
}
