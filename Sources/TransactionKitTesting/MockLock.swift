#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain pthread mutex.
///
/// `MockDB` uses it rather than `Synchronization.Mutex` because the thread
/// sanitizer intercepts pthread mutexes, whereas `Mutex` on Linux locks
/// through a futex inside the (uninstrumented) standard library: a probe that
/// contended one `MockDB` from four threads under `--sanitize=thread`
/// reported races through `Mutex` that were not there. Users run their own
/// tests under the sanitizer, so the mock must not cry wolf.
final class MockLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "MockDB: pthread_mutex_init failed (\(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
