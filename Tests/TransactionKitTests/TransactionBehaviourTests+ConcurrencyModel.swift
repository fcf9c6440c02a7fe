import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Whether a read runs while a write's block is running, per backend (the
/// table in `DB`'s documentation):
///
/// | backend | a read during a write |
/// | --- | --- |
/// | file `SQLiteDB` (WAL pool) | runs beside it, on the last committed snapshot |
/// | `MockDB` | runs beside it (as a file database does) |
/// | in-memory `SQLiteDB`, template copies (one connection) | waits for the write to end |
extension TransactionBehaviourTests {
    @Test(arguments: Backend.allCases)
    func aReadDuringAWriteRunsBesideItOrWaitsAsDocumented(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        try fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        let writeIsPaused = AtomicFlag(false)
        let releaseWrite = AtomicFlag(false)
        let readValue = LockedValue<Int??>(nil)

        let writer = Thread {
            try? fixture.db.write { tx in
                try fixture.store.setInt(2, key: "a", transaction: tx)
                writeIsPaused.store(true, ordering: .releasing)
                Self.waitUntil { releaseWrite.load(ordering: .acquiring) }
            }
        }
        writer.start()
        Self.waitUntil { writeIsPaused.load(ordering: .acquiring) }

        let reader = Thread {
            let value = try? fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
            readValue.withLock { $0 = .some(value) }
        }
        reader.start()
        let readFinished = { readValue.withLock { $0 != nil } }

        switch backend {
        case .sqliteFile, .mock, .sqliteAdoptedPool:
            // The read runs while the write's block is paused.
            Self.waitUntil(readFinished)
            #expect(readValue.withLock { $0 } == .some(1), "it saw the last committed value")
            releaseWrite.store(true, ordering: .releasing)
        case .sqliteInMemory, .sqliteAdoptedQueue:
            // The one connection is busy with the write: the read must not
            // finish while the write is paused (checked for 200 ms).
            Self.poll(for: 0.2, readFinished)
            #expect(!readFinished(), "the read waited for the write")
            releaseWrite.store(true, ordering: .releasing)
            Self.waitUntil(readFinished)
            #expect(readValue.withLock { $0 } == .some(2), "it ran after the commit")
        }
        Self.waitUntil { writer.isFinished }
        #expect(try fixture.value("a") == 2)
    }

    /// Polls `condition` every millisecond until it holds, however long
    /// that takes: a condition that never holds is the failure, and hangs
    /// the test (no wall-clock bound: a loaded machine only makes it slow).
    static func waitUntil(_ condition: () -> Bool) {
        while !condition() {
            usleep(1_000)
        }
    }

    /// Polls `condition` every millisecond for `seconds`, or until it
    /// holds: for a check that something does not happen while another
    /// thing holds it back. A slow machine can only make such a check pass
    /// wrongly, never fail.
    static func poll(for seconds: Double, _ condition: () -> Bool) {
        let stopwatch = Stopwatch()
        while !condition(), stopwatch.seconds < seconds {
            usleep(1_000)
        }
    }
}
