#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import TransactionKit

/// The read-only connections of a file ``SQLiteDB``, in place of GRDB's
/// `DatabasePool` readers.
///
/// A read checks an idle reader out of a free list under a mutex (two
/// uncontended lock operations per read), runs its transaction on it, and
/// checks it back in. GRDB's pool takes a `sync` on a concurrent dispatch
/// queue with a barrier, a semaphore and a dispatch group per read, which
/// costs more than SQLite's own read transaction (see Benchmarks/README.md).
///
/// What GRDB's reader pool did, and what this pool does instead:
/// - **Reader limit:** at most `maximumCount` connections
///   (``SQLiteDB/Options/maximumReaderCount``), opened on first need; a read
///   that finds them all busy waits for one (a synchronous read blocks its
///   thread, an async read suspends).
/// - **Snapshots and the schema cache:** each read is one `BEGIN DEFERRED`
///   transaction whose first statement reads the schema version (see
///   ``SQLiteTransactionStatements``), which also clears the connection's
///   schema cache after a migration by another connection, as GRDB does.
/// - **Read-only:** connections are opened with `SQLITE_OPEN_READONLY`, with
///   the database's busy timeout for the rare cases where a WAL reader can
///   meet `SQLITE_BUSY` (a recovery by another process; GRDB's readers wait
///   10 seconds there).
/// - **WAL checkpoints:** readers never checkpoint; the writer does, at
///   commit (SQLite's automatic checkpoint) and at ``SQLiteDB/close()``.
/// - **Closing:** ``close()`` refuses new reads, waits for the running ones,
///   then closes every reader, before the writer closes (the last
///   connection to close, the writer, removes the `-wal` file).
final class SQLiteReaderPool: @unchecked Sendable {
    private let path: String
    private let configuration: Configuration
    private let maximumCount: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    // Guarded by `mutex`.
    private var idle: [SQLiteReader] = []
    /// Readers open or being opened.
    private var openCount = 0
    /// Readers handed out (or being opened for a read).
    private var checkedOut = 0
    /// Async reads waiting for a reader.
    private var waiters: [CheckedContinuation<SQLiteReader?, any Error>] = []
    private var isClosed = false

    /// A pool for the database file at `path`.
    ///
    /// - Parameter writerConfiguration: The writer's configuration, from
    ///   which the readers' is derived.
    init(path: String, writerConfiguration: Configuration) {
        self.path = path
        var configuration = writerConfiguration
        configuration.readonly = true
        self.configuration = configuration
        self.maximumCount = max(1, writerConfiguration.maximumReaderCount)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    // MARK: - Reads

    /// Runs `body` in one read transaction on an idle reader.
    func read<R>(_ body: (Database) throws -> R) throws -> R {
        let reader = try checkOut()
        defer { checkIn(reader) }
        return try reader.read(body)
    }

    /// Runs `body` in one read transaction on an idle reader, suspending the
    /// caller while it waits for one and while the body runs.
    func read<R: Sendable>(_ body: @Sendable (Database) throws -> R) async throws -> R {
        let reader = try await checkOutAsync()
        defer { checkIn(reader) }
        return try await reader.read(body)
    }

    // MARK: - Closing

    /// Refuses new reads, waits for the running ones, and closes every
    /// reader. Idempotent.
    ///
    /// - Throws: The first error of a reader that cannot close.
    func close() throws {
        pthread_mutex_lock(mutex)
        isClosed = true
        let waiting = waiters
        waiters = []
        pthread_cond_broadcast(condition)
        while checkedOut > 0 {
            pthread_cond_wait(condition, mutex)
        }
        let readers = idle
        idle = []
        openCount -= readers.count
        pthread_mutex_unlock(mutex)
        for waiter in waiting {
            waiter.resume(throwing: closedError())
        }
        var failure: (any Error)?
        for reader in readers {
            do {
                try reader.close()
            } catch {
                failure = failure ?? error
            }
        }
        if let failure {
            throw failure
        }
    }

    // MARK: - Checking readers out and in

    private func checkOut() throws -> SQLiteReader {
        pthread_mutex_lock(mutex)
        while true {
            if isClosed {
                pthread_mutex_unlock(mutex)
                throw closedError()
            }
            if let reader = idle.popLast() {
                checkedOut += 1
                pthread_mutex_unlock(mutex)
                return reader
            }
            if openCount < maximumCount {
                openCount += 1
                checkedOut += 1
                pthread_mutex_unlock(mutex)
                return try openReader()
            }
            pthread_cond_wait(condition, mutex)
        }
    }

    private func checkOutAsync() async throws -> SQLiteReader {
        let reader = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SQLiteReader?, any Error>) in
            pthread_mutex_lock(mutex)
            if isClosed {
                pthread_mutex_unlock(mutex)
                continuation.resume(throwing: closedError())
            } else if let reader = idle.popLast() {
                checkedOut += 1
                pthread_mutex_unlock(mutex)
                continuation.resume(returning: reader)
            } else if openCount < maximumCount {
                openCount += 1
                checkedOut += 1
                pthread_mutex_unlock(mutex)
                continuation.resume(returning: nil)
            } else {
                waiters.append(continuation)
                pthread_mutex_unlock(mutex)
            }
        }
        return try reader ?? openReader()
    }

    /// Opens a reader for a read already counted in `openCount` and
    /// `checkedOut`; uncounts it if the open fails.
    private func openReader() throws -> SQLiteReader {
        do {
            return try SQLiteReader(path: path, configuration: configuration)
        } catch {
            pthread_mutex_lock(mutex)
            openCount -= 1
            checkedOut -= 1
            // A waiting read may open one in its place.
            pthread_cond_broadcast(condition)
            let waiter = waiters.isEmpty ? nil : waiters.removeFirst()
            if waiter != nil {
                openCount += 1
                checkedOut += 1
            }
            pthread_mutex_unlock(mutex)
            waiter?.resume(returning: nil)
            throw error
        }
    }

    private func checkIn(_ reader: SQLiteReader) {
        pthread_mutex_lock(mutex)
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            pthread_mutex_unlock(mutex)
            waiter.resume(returning: reader)
            return
        }
        checkedOut -= 1
        idle.append(reader)
        if isClosed {
            pthread_cond_broadcast(condition)
        } else {
            pthread_cond_signal(condition)
        }
        pthread_mutex_unlock(mutex)
    }

    private func closedError() -> DBError {
        DBError.closedDatabase(path: path, operation: .read)
    }
}
