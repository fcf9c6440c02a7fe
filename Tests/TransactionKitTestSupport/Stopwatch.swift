import Dispatch

/// Seconds elapsed since a start, on the monotonic clock `DispatchTime`
/// reads: what the tests time a wait with, and poll against a deadline.
///
/// ```swift
/// let stopwatch = Stopwatch()
/// while !done(), stopwatch.seconds < 10 { usleep(100) }
/// #expect(stopwatch.seconds >= 0.2)
/// ```
///
/// **Threads:** any; a value, copied freely.
//
// Not `ContinuousClock` and `Duration`, which need macOS 13 / iOS 16, above
// the package's floor (the availability audit checks the test targets too).
package struct Stopwatch: Sendable {
    private let start: UInt64

    /// Starts timing now.
    package init() {
        start = DispatchTime.now().uptimeNanoseconds
    }

    /// The seconds since ``init()``.
    package var seconds: Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
    }
}
