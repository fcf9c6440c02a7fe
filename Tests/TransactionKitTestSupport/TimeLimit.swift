import Testing

/// A suite's time limit: Swift Testing's `.timeLimit(.minutes(minutes))`
/// where it exists (macOS 13, iOS 16, tvOS 16, watchOS 9 and Linux); on an
/// older system, where Swift Testing has no time limit, the suite runs
/// without one.
///
/// ```swift
/// @Suite("Transaction behaviour", suiteTimeLimit(minutes: 1))
/// struct TransactionBehaviourTests { … }
/// ```
///
/// - Parameter minutes: The limit of each test of the suite.
package func suiteTimeLimit(minutes: Int) -> any SuiteTrait {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
        let limit: TimeLimitTrait = .timeLimit(.minutes(minutes))
        return limit
    }
    return NoTimeLimit()
}

/// What ``suiteTimeLimit(minutes:)`` gives where Swift Testing has no time
/// limit: a trait that changes nothing.
private struct NoTimeLimit: SuiteTrait {}
