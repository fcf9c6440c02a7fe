#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain pthread mutex, for the core's own shared state (commit
/// observers).
///
/// Not `Synchronization.Mutex`: on Linux a contended `Mutex` hands over
/// through futex calls that ThreadSanitizer does not see, and it reports
/// races on the data it protects that are not there (see `MockLock` in
/// TransactionKitTesting, which exists for the same reason).
package final class PThreadMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "TransactionKit: pthread_mutex_init failed (\(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
