/// The memory ordering of an ``AtomicInt`` operation, as in C11.
@usableFromInline package enum AtomicOrdering: Int32, Sendable {
    case relaxed = 0
    case acquiring = 2
    case releasing = 3
    case acquiringAndReleasing = 4
    case sequentiallyConsistent = 5
}

/// An integer that threads read and change without a lock, in an object of
/// its own: for a counter or a flag of a long-lived object. An object made
/// often keeps its words inline instead (``InlineAtomicWords``).
///
/// ```swift
/// let closed = AtomicInt(0)
/// if closed.exchange(1, ordering: .acquiringAndReleasing) == 0 { /* first close */ }
/// ```
///
/// **Threads:** any.
//
// A transaction does not use this class: its two words live in the
// transaction object itself (DBReadTransaction.swift), which saves an
// allocation per transaction.
@usableFromInline package final class AtomicInt: InlineAtomicWords, @unchecked Sendable {
    // Read and written only through `atomicWord(0)`, once `init` returned.
    private var storage: Int

    /// Creates an atomic holding `value`.
    package init(_ value: Int) {
        storage = value
    }

    @inlinable var word: AtomicWord { atomicWord(0) }

    /// The current value.
    @inlinable package func load(ordering: AtomicOrdering) -> Int {
        word.load(ordering: ordering)
    }

    /// Replaces the value.
    @inlinable package func store(_ value: Int, ordering: AtomicOrdering) {
        word.store(value, ordering: ordering)
    }

    /// Replaces the value and returns the previous one.
    @inlinable package func exchange(_ value: Int, ordering: AtomicOrdering) -> Int {
        word.exchange(value, ordering: ordering)
    }

    /// Adds `delta`, wrapping around on overflow, and returns the new value.
    @inlinable @discardableResult
    package func wrappingAdd(_ delta: Int, ordering: AtomicOrdering) -> Int {
        word.wrappingAdd(delta, ordering: ordering)
    }

    /// Stores `desired` if the value is `expected`.
    ///
    /// - Returns: Whether it stored, and the value it found.
    @inlinable package func compareExchange(
        expected: Int, desired: Int, ordering: AtomicOrdering
    ) -> (exchanged: Bool, original: Int) {
        word.compareExchange(expected: expected, desired: desired, ordering: ordering)
    }
}
