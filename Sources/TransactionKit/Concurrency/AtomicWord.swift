import CTransactionKitMisuseHook

/// One machine word that threads read and change without a lock, reached
/// through its address: the package's atomic operations, in C11's terms.
///
/// An `AtomicWord` points into an object that keeps its words inline (an
/// ``InlineAtomicWords`` class, or an ``AtomicInt``): it is valid while
/// that object lives, and only the atomic operations below ever touch the
/// word after the object's `init`.
///
/// ```swift
/// if closed.exchange(1, ordering: .acquiringAndReleasing) == 0 { /* first close */ }
/// ```
///
/// **Threads:** any.
//
// Not `Synchronization.Atomic`, which needs iOS 18 and macOS 15, above the
// package's floor: the operations are the C target's (CTransactionKitAtomics.h),
// which inline to the same instructions.
@usableFromInline package struct AtomicWord {
    @usableFromInline let address: UnsafeMutablePointer<Int>

    @inlinable init(_ address: UnsafeMutablePointer<Int>) {
        self.address = address
    }

    /// The current value.
    @inlinable package func load(ordering: AtomicOrdering) -> Int {
        transactionkit_atomic_load(address, ordering.rawValue)
    }

    /// Replaces the value.
    @inlinable package func store(_ value: Int, ordering: AtomicOrdering) {
        transactionkit_atomic_store(address, value, ordering.rawValue)
    }

    /// Replaces the value and returns the previous one.
    @inlinable package func exchange(_ value: Int, ordering: AtomicOrdering) -> Int {
        transactionkit_atomic_exchange(address, value, ordering.rawValue)
    }

    /// Adds `delta`, wrapping around on overflow, and returns the new value.
    @inlinable @discardableResult
    package func wrappingAdd(_ delta: Int, ordering: AtomicOrdering) -> Int {
        transactionkit_atomic_fetch_add(address, delta, ordering.rawValue) &+ delta
    }

    /// Stores `desired` if the value is `expected`.
    ///
    /// - Returns: Whether it stored, and the value it found.
    @inlinable package func compareExchange(
        expected: Int, desired: Int, ordering: AtomicOrdering
    ) -> (exchanged: Bool, original: Int) {
        var found = expected
        let exchanged = transactionkit_atomic_compare_exchange(address, &found, desired, ordering.rawValue)
        return (exchanged, found)
    }
}
