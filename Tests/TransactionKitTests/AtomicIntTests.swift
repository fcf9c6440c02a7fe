import Dispatch
import Testing
import TransactionKit

/// `AtomicInt`, the package's atomic below iOS 18: the results of each
/// operation, and increments from several threads that none loses.
@Suite("AtomicInt")
struct AtomicIntTests {
    @Test func loadsWhatWasStoredAndExchangeReturnsThePreviousValue() {
        let atomic = AtomicInt(7)
        #expect(atomic.load(ordering: .relaxed) == 7)
        atomic.store(-3, ordering: .releasing)
        #expect(atomic.load(ordering: .acquiring) == -3)
        #expect(atomic.exchange(11, ordering: .acquiringAndReleasing) == -3)
        #expect(atomic.load(ordering: .sequentiallyConsistent) == 11)
    }

    @Test func compareExchangeStoresOnlyWhenItFindsTheExpectedValue() {
        let atomic = AtomicInt(0)
        let first = atomic.compareExchange(expected: 0, desired: 1, ordering: .acquiring)
        #expect(first.exchanged && first.original == 0)
        let second = atomic.compareExchange(expected: 0, desired: 2, ordering: .releasing)
        #expect(!second.exchanged && second.original == 1)
        #expect(atomic.load(ordering: .relaxed) == 1)
    }

    @Test func wrappingAddReturnsTheNewValueAndWraps() {
        let atomic = AtomicInt(Int.max)
        #expect(atomic.wrappingAdd(1, ordering: .relaxed) == Int.min)
        #expect(atomic.wrappingAdd(-1, ordering: .acquiringAndReleasing) == Int.max)
    }

    @Test func concurrentIncrementsAreNotLost() {
        let atomic = AtomicInt(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50_000 {
                atomic.wrappingAdd(1, ordering: .relaxed)
            }
        }
        #expect(atomic.load(ordering: .acquiring) == 200_000)
    }

    /// A class with its words inline: `atomicWord(i)` is the i-th `Int` of
    /// its first stored property, and nothing after it.
    final class Inline: InlineAtomicWords, @unchecked Sendable {
        var words: (Int, Int, Int) = (1, 2, 3)
        let tail = 99
    }

    @Test func inlineWordsAreTheFirstStoredPropertysInts() {
        let object = Inline()
        #expect((0..<3).map { object.atomicWord($0).load(ordering: .relaxed) } == [1, 2, 3])
        object.atomicWord(2).store(30, ordering: .releasing)
        #expect(object.atomicWord(0).exchange(10, ordering: .acquiringAndReleasing) == 1)
        #expect(object.words == (10, 2, 30))
        #expect(object.tail == 99)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for _ in 0..<50_000 {
                object.atomicWord(index % 2).wrappingAdd(1, ordering: .relaxed)
            }
        }
        #expect(object.words == (100_010, 100_002, 30))
    }
}
