import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
/// - A waiter takes `mutex`, sets the word to 2, and either waits on
///   `condition` (a thread) or leaves its continuation in `asyncWaiters`
///   (a task). An unlock that finds 2 takes `mutex`: it hands the gate
///   straight to the first waiting task (the word stays held), or frees it
///   and wakes a waiting thread, which competes for it again.
///
/// A waiting task is preferred to a waiting thread when the gate is
/// handed over: fair enough for a mock, whose writes are short.
///
/// Every access to the word acquires or releases, and the slow path runs
/// under a pthread mutex and condition variable: the thread sanitizer sees
/// all of it (see ``MockLock`` on why not `Synchronization.Mutex`).
final class MockWriteGate: @unchecked Sendable {
    private let word = Atomic<UInt8>(0)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Guarded by `mutex`.
    private var asyncWaiters: [UnsafeContinuation<Void, Never>] = []
    private var asyncWaitersHead = 0
    /// Guarded by `mutex`.
    private var threadWaiters = 0

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "MockDB: pthread_mutex_init failed (\(status))")
        status = pthread_cond_init(condition, nil)
        precondition(status == 0, "MockDB: pthread_cond_init failed (\(status))")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

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
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            pthread_mutex_lock(mutex)
            if markContendedOrAcquire() {
                pthread_mutex_unlock(mutex)
                continuation.resume()
                return
            }
            asyncWaiters.append(continuation)
            pthread_mutex_unlock(mutex)
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

    /// Under `mutex`: takes the gate if it is free (returns `true`), or
    /// marks it contended so that its holder's unlock takes the slow path.
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
        pthread_mutex_lock(mutex)
        while !markContendedOrAcquire() {
            threadWaiters += 1
            pthread_cond_wait(condition, mutex)
            threadWaiters -= 1
        }
        pthread_mutex_unlock(mutex)
    }

    private func unlockContended() {
        pthread_mutex_lock(mutex)
        if asyncWaitersHead < asyncWaiters.count {
            let next = asyncWaiters[asyncWaitersHead]
            asyncWaitersHead += 1
            if asyncWaitersHead == asyncWaiters.count {
                asyncWaiters.removeAll(keepingCapacity: true)
                asyncWaitersHead = 0
            }
            // The gate stays held, now by `next`; 2 keeps later unlocks on
            // this path (a thread that waits re-marks it anyway).
            word.store(2, ordering: .releasing)
            pthread_mutex_unlock(mutex)
            next.resume()
            return
        }
        word.store(0, ordering: .releasing)
        if threadWaiters > 0 {
            pthread_cond_signal(condition)
        }
        pthread_mutex_unlock(mutex)
    }
}
