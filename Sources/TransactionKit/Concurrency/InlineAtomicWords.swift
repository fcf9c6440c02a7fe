/// A class that keeps atomic words inline, in its first stored property,
/// instead of one ``AtomicInt`` object per word: one allocation fewer per
/// word, for objects made often (a `MockDB` per test).
///
/// ```swift
/// final class Counters: InlineAtomicWords, Sendable {
///     // First stored property; only `atomicWord(_:)` touches it after `init`.
///     nonisolated(unsafe) private var words: (Int, Int) = (0, 0)
///     private var reads: AtomicWord { atomicWord(0) }
///     private var writes: AtomicWord { atomicWord(1) }
/// }
/// ```
///
/// The conforming class must be final, have no superclass, and declare the
/// words first: an `Int`, or a tuple of `Int`s, which Swift lays out
/// contiguously at the start of the object's stored properties (as the
/// standard library's `ManagedBuffer` finds its header). No Swift access,
/// and so no exclusivity check, touches them once `init` returned.
@usableFromInline package protocol InlineAtomicWords: AnyObject {}

extension InlineAtomicWords {
    /// The word at `index` of the object's first stored property.
    @inlinable package func atomicWord(_ index: Int) -> AtomicWord {
        AtomicWord(_getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self) + index)
    }
}
