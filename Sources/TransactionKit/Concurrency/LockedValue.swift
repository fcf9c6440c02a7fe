#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that lives inside its lock: the package's one lock type, for
/// the core, the testing module and the backends.
///
/// ```swift
/// let state = LockedValue(State())
/// let running = state.withLock { $0.running += 1; return $0.running }
/// ```
///
/// It also has a condition variable, for the few places that wait for the
/// value to change: ``withLockWaiting(until:)`` waits, ``signal()`` and
/// ``broadcast()`` wake waiters.
///
/// **Threads:** any. The lock is not recursive: do not use the same box
/// from inside one of its closures.
//
// A pthread mutex, not `Synchronization.Mutex`: the thread sanitizer
// intercepts pthread mutexes, whereas `Mutex` on Linux locks through a
// futex inside the (uninstrumented) standard library, and a probe that
// contended one `MockDB` from four threads under `--sanitize=thread`
// reported races through `Mutex` that were not there. Users run their own
// tests (and `MockDB`) under the sanitizer, so the package must not cry
// wolf. The mutex and the condition variable share one allocation.
//
// `@usableFromInline` makes the `@inlinable` methods inline into the other
// modules: without it the compiler emits no inlinable bodies for a `package`
// type, and each `withLock` from a backend would be an unspecialized generic
// call that instantiates `LockedValue<State>`'s metadata, paid twice per
// read by the reader pool (txkit-bench `empty_read_tx`; Benchmarks/README.md
// has the figures).
@usableFromInline package final class LockedValue<Value> {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
    // Accessed only with `mutex` held, which already makes each access
    // exclusive: no runtime exclusivity check (two per `withLock`, paid by
    // every read's reader check-out and check-in).
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// Creates a lock holding `value`.
    package init(_ value: Value) {
        self.value = value
        let conditionOffset = Self.conditionOffset
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: conditionOffset + MemoryLayout<pthread_cond_t>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment))
        mutex = raw.initializeMemory(as: pthread_mutex_t.self, repeating: pthread_mutex_t(), count: 1)
        condition = (raw + conditionOffset).initializeMemory(as: pthread_cond_t.self, repeating: pthread_cond_t(), count: 1)
        var status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "TransactionKit: pthread_mutex_init failed (\(status))")
        status = pthread_cond_init(condition, nil)
        precondition(status == 0, "TransactionKit: pthread_cond_init failed (\(status))")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    private static var conditionOffset: Int {
        let alignment = MemoryLayout<pthread_cond_t>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
    }

    /// Runs `body` with exclusive access to the value, holding the lock.
    @inlinable
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` holding the lock until it returns a result: each time it
    /// returns `nil`, waits (releasing the lock meanwhile) for ``signal()``
    /// or ``broadcast()``, then runs it again.
    @inlinable
    package func withLockWaiting<R>(until body: (inout Value) throws -> R?) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            // The access to the value ends before the wait, in which other
            // threads change it.
            if let result = try body(&value) {
                return result
            }
            pthread_cond_wait(condition, mutex)
        }
    }

    /// Wakes one thread waiting in ``withLockWaiting(until:)``. Call it from
    /// a `withLock` body, after changing what the waiter waits for.
    @inlinable
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every thread waiting in ``withLockWaiting(until:)``. Call it
    /// from a `withLock` body, after changing what they wait for.
    @inlinable
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

// Every access to the value holds the lock.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
