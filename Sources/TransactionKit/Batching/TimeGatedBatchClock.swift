import Dispatch

/// What ``TimeGatedBatch`` reads to decide when a write transaction has
/// run long enough: a monotonic time in nanoseconds.
///
/// Production code uses ``SystemBatchClock`` (the default); a test injects
/// a clock it advances by hand (`ManualBatchClock` in TransactionKitTesting),
/// so that it decides exactly where the work splits into transactions, with
/// no sleep:
///
/// ```swift
/// let clock = ManualBatchClock()
/// try TimeGatedBatch.enumerateObjects(ids, db: db, yieldTxAfter: 1, clock: clock) { id, tx in
///     try archive(id, tx)
///     clock.advance(bySeconds: 0.4)   // a new transaction after every third id
/// }
/// ```
///
/// **Threads:** `Sendable`; read from the thread (or task) that runs the
/// batch's transactions.
public protocol TimeGatedBatchClock: Sendable {
    /// The current time, in nanoseconds since an arbitrary fixed point; it
    /// never decreases.
    var nanoseconds: UInt64 { get }
}

/// The system's monotonic clock (`DispatchTime`): the default of
/// ``TimeGatedBatch``.
///
/// It does not advance while the system sleeps, so time asleep does not
/// count toward `yieldTxAfter`.
public struct SystemBatchClock: TimeGatedBatchClock {
    /// Creates the system clock.
    public init() {}

    /// `DispatchTime.now().uptimeNanoseconds`.
    public var nanoseconds: UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}

extension TimeGatedBatchClock where Self == SystemBatchClock {
    /// The system's monotonic clock.
    public static var system: SystemBatchClock { SystemBatchClock() }
}

/// When one transaction of a batch has run for `yieldTxAfter` seconds on
/// `clock`.
struct BatchDeadline {
    let clock: any TimeGatedBatchClock
    let start: UInt64
    let limit: UInt64

    /// Starts counting now.
    init(clock: any TimeGatedBatchClock, seconds: Double) {
        self.clock = clock
        self.start = clock.nanoseconds
        if !(seconds > 0) {
            limit = 0
        } else if seconds >= Double(UInt64.max / 1_000_000_000) {
            limit = .max
        } else {
            limit = UInt64(seconds * 1_000_000_000)
        }
    }

    var hasPassed: Bool {
        let now = clock.nanoseconds
        return now >= start && now - start >= limit
    }
}
