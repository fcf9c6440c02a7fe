import CTransactionKitMisuseHook

/// The memory ordering of an ``AtomicInt`` operation, as in C11.
@usableFromInline package enum AtomicOrdering: Int32, Sendable {
    case relaxed = 0
    case acquiring = 2
    case releasing = 3
    case acquiringAndReleasing = 4
    case sequentiallyConsistent = 5
}

/// An integer that threads read and change without a lock: the package's
/// atomic, for counters and flags on long-lived objects (a database's
/// scope, a backend, an observation).
///
/// ```swift
/// let closed = AtomicInt(0)
/// if closed.exchange(1, ordering: .acquiringAndReleasing) == 0 { /* first close */ }
/// ```
///
/// **Threads:** any.
//
// Not `Synchronization.Atomic`, which needs iOS 18 and macOS 15, above the
// package's floor: the operations are the C target's (CTransactionKitAtomics.h),
// which inline to the same instructions. The value is the object's only
// stored property, reached through the object's address as the standard
// library's `ManagedBuffer` reaches its header, so that no Swift access (and
// no exclusivity check) ever touches it after `init`. A transaction does not
// use this class: its two words live in the transaction object itself
// (DBReadTransaction.swift), which saves an allocation per transaction.
@usableFromInline package final class AtomicInt: @unchecked Sendable {
    // Read and written only through `word`, once `init` returned.
    private var storage: Int

    /// Creates an atomic holding `value`.
    package init(_ value: Int) {
        storage = value
    }

    @usableFromInline var word: UnsafeMutablePointer<Int> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
    }

    /// The current value.
    @inlinable package func load(ordering: AtomicOrdering) -> Int {
        transactionkit_atomic_load(word, ordering.rawValue)
    }

    /// Replaces the value.
    @inlinable package func store(_ value: Int, ordering: AtomicOrdering) {
        transactionkit_atomic_store(word, value, ordering.rawValue)
    }

    /// Replaces the value and returns the previous one.
    @inlinable package func exchange(_ value: Int, ordering: AtomicOrdering) -> Int {
        transactionkit_atomic_exchange(word, value, ordering.rawValue)
    }

    /// Adds `delta`, wrapping around on overflow, and returns the new value.
    @inlinable @discardableResult
    package func wrappingAdd(_ delta: Int, ordering: AtomicOrdering) -> Int {
        transactionkit_atomic_fetch_add(word, delta, ordering.rawValue) &+ delta
    }

    /// Stores `desired` if the value is `expected`.
    ///
    /// - Returns: Whether it stored, and the value it found.
    @inlinable package func compareExchange(
        expected: Int, desired: Int, ordering: AtomicOrdering
    ) -> (exchanged: Bool, original: Int) {
        var found = expected
        let exchanged = transactionkit_atomic_compare_exchange(word, &found, desired, ordering.rawValue)
        return (exchanged, found)
    }
}
