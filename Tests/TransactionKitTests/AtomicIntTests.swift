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
}
