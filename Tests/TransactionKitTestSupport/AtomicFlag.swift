import TransactionKit

/// A Boolean that threads set and read without a lock: the tests' flags
/// (a block started, a write committed), on the package's ``AtomicInt``.
///
/// ```swift
/// let started = AtomicFlag(false)
/// started.store(true, ordering: .releasing)         // one thread
/// while !started.load(ordering: .acquiring) { … }   // another
/// ```
///
/// **Threads:** any.
//
// Not `Synchronization.Atomic<Bool>`, which needs macOS 15 / iOS 18, above
// the package's floor (the availability audit checks the test targets too).
package final class AtomicFlag: Sendable {
    private let word: AtomicInt

    /// Creates a flag holding `value`.
    package init(_ value: Bool) {
        word = AtomicInt(value ? 1 : 0)
    }

    /// The current value.
    package func load(ordering: AtomicOrdering) -> Bool {
        word.load(ordering: ordering) != 0
    }

    /// Replaces the value.
    package func store(_ value: Bool, ordering: AtomicOrdering) {
        word.store(value ? 1 : 0, ordering: ordering)
    }
}
