import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport

/// A transaction's state is read by the misuse checks from whatever thread
/// it was smuggled to, while the thread that runs its block ends it. The
/// read must not be a data race: this suite runs under the thread sanitizer
/// (Scripts/run-thread-sanitizer.sh), which reports any plain read of the
/// state that races the owner's writes.
@Suite("Transaction state read from another thread")
struct TransactionStateAcrossThreadsTests {
    /// Carries a transaction to another thread on purpose, which the
    /// compiler rightly refuses for the transaction itself.
    final class Smuggled: @unchecked Sendable {
        let transaction: DBReadTransaction
        init(_ transaction: DBReadTransaction) { self.transaction = transaction }
    }

    /// What the foreign thread saw: the first read, and the read that ended
    /// its loop.
    final class Sightings: @unchecked Sendable {
        // Written by the foreign thread before `done` leaves, read after
        // `done.wait()`: ordered by the group.
        var first: Bool?
        var last: Bool?
    }

    @Test(arguments: Backend.allCases)
    func isActiveIsReadSafelyFromAnotherThreadWhileTheBlockEnds(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        for _ in 0..<100 {
            let sightings = Sightings()
            let firstRead = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            try fixture.db.write { tx in
                let smuggled = Smuggled(tx)
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    sightings.first = smuggled.transaction.isActive
                    firstRead.signal()
                    // Polls while the block returns and the write commits.
                    while smuggled.transaction.isActive {}
                    sightings.last = smuggled.transaction.isActive
                }
                firstRead.wait()
            }
            done.wait()
            #expect(sightings.first == true)
            #expect(sightings.last == false)
        }
    }
}
