import TransactionKit

/// MockDB's write serialization: one write transaction at a time, whether
/// its block is synchronous (the thread waits, as on a mutex) or async (the
/// task suspends, and no thread waits).
///
/// A pthread mutex cannot serve async writes: it must be unlocked by the
/// thread that locked it, and an async block may resume on another thread;
/// a cooperative thread blocked on it would also starve the task pool. So
/// the gate is a word with a fast path and a slow path, in the manner of a
/// futex-based mutex:
///
/// - `word` is 0 when free, 1 when held with nobody waiting, 2 when held
///   and someone may wait. An uncontended lock is one compare-and-swap
///   (0 → 1), an uncontended unlock another (1 → 0): the cost of the
///   pthread mutex it replaced on the synchronous write path.
/// - A waiter takes the lock of `waiters`, sets the word to 2, and either
///   waits on its condition (a thread) or leaves its continuation in
///   `waiters` (a task). An unlock that finds 2 takes that lock: it hands
///   the gate straight to the first waiting task (the word stays held), or
///   frees it and wakes a waiting thread, which competes for it again.
///
/// A waiting task is preferred to a waiting thread when the gate is
/// handed over: fair enough for a mock, whose writes are short.
///
/// Every access to the word acquires or releases, and the slow path runs
/// under a `LockedValue` (a pthread mutex and condition variable): the
/// thread sanitizer sees all of it.
final class MockWriteGate: InlineAtomicWords, Sendable {
    // First stored property: `word`, inline (one allocation fewer per
    // `MockDB`). Only `atomicWord(_:)` touches it.
    nonisolated(unsafe) private var storage = 0

    private struct Waiters {
        var tasks: [CheckedContinuation<Void, Never>] = []
        var tasksHead = 0
        var threads = 0
    }

    private var word: AtomicWord { atomicWord(0) }
    private let waiters = LockedValue(Waiters())

    init() {}

    /// Runs `body` while holding the gate, blocking the thread while
    /// another write holds it. `whenContended` runs once, before the thread
    /// would wait, and may throw instead (MockDB reports a write nested in
    /// an async write of the same task there, which would wait forever).
    @inline(__always)
    func withLock<R>(whenContended: () throws -> Void = {}, _ body: () throws -> R) throws -> R {
        if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            try whenContended()
            lockWaitingThread()
        }
        defer { unlock() }
        return try body()
    }

    /// Runs `body` while holding the gate, without `throws` (seeding).
    func withLock<R>(_ body: () -> R) -> R {
        if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            lockWaitingThread()
        }
        defer { unlock() }
        return body()
    }

    /// Takes the gate, suspending (never blocking) while another write
    /// holds it. Pair with ``unlock()``, from any thread.
    func lock() async {
        if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = waiters.withLock { waiters in
                if markContendedOrAcquire() { return true }
                waiters.tasks.append(continuation)
                return false
            }
            if acquired {
                continuation.resume()
            }
        }
        // Resumed by `unlock()`, which handed the gate over.
    }

    /// Releases the gate: hands it to the first waiting task, or frees it
    /// and wakes a waiting thread.
    @inline(__always)
    func unlock() {
        if word.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged {
            return
        }
        unlockContended()
    }

    // MARK: - Slow paths

    /// Under the lock of `waiters`: takes the gate if it is free (returns
    /// `true`), or marks it contended so that its holder's unlock takes the
    /// slow path.
    private func markContendedOrAcquire() -> Bool {
        while true {
            if word.compareExchange(expected: 0, desired: 2, ordering: .acquiring).exchanged {
                return true
            }
            if word.compareExchange(expected: 1, desired: 2, ordering: .relaxed).exchanged
                || word.load(ordering: .relaxed) == 2
            {
                return false
            }
            // Freed in between: try again.
        }
    }

    private func lockWaitingThread() {
        var isWaiting = false
        waiters.withLockWaiting(until: { waiters -> Void? in
            if isWaiting {
                waiters.threads -= 1
            }
            if markContendedOrAcquire() {
                return ()
            }
            waiters.threads += 1
            isWaiting = true
            return nil
        })
    }

    private func unlockContended() {
        let next = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
            if waiters.tasksHead < waiters.tasks.count {
                let next = waiters.tasks[waiters.tasksHead]
                waiters.tasksHead += 1
                if waiters.tasksHead == waiters.tasks.count {
                    waiters.tasks.removeAll(keepingCapacity: true)
                    waiters.tasksHead = 0
                }
                // The gate stays held, now by `next`; 2 keeps later unlocks
                // on this path (a thread that waits re-marks it anyway).
                word.store(2, ordering: .releasing)
                return next
            }
            word.store(0, ordering: .releasing)
            if waiters.threads > 0 {
                self.waiters.signal()
            }
            return nil
        }
        next?.resume()
    }
}
