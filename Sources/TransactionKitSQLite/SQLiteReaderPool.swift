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

    private struct State {
        var idle: [SQLiteReader] = []
        /// Readers open or being opened.
        var openCount = 0
        /// Readers handed out (or being opened for a read).
        var checkedOut = 0
        /// Async reads waiting for a reader.
        var waiters: [CheckedContinuation<SQLiteReader?, any Error>] = []
        var isClosed = false
    }

    /// Its condition wakes the synchronous reads (and `close()`) that wait
    /// for a reader.
    private let state = LockedValue(State())

    /// A pool for the database file at `path`.
    ///
    /// - Parameter writerConfiguration: The writer's configuration, from
    ///   which the readers' is derived.
    init(path: String, writerConfiguration: Configuration) {
        self.path = path
        var configuration = writerConfiguration
        configuration.readonly = true
        // Every access to a reader ends its transaction or stops the
        // process (SQLiteTransactionStatements): GRDB's own check per
        // access would cost a thread check more per read.
        configuration.allowsUnsafeTransactions = true
        self.configuration = configuration
        self.maximumCount = max(1, writerConfiguration.maximumReaderCount)
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
        var waiting: [CheckedContinuation<SQLiteReader?, any Error>] = []
        var isClosing = false
        let readers = state.withLockWaiting(until: { state -> [SQLiteReader]? in
            if !isClosing {
                isClosing = true
                state.isClosed = true
                swap(&waiting, &state.waiters)
                self.state.broadcast()
            }
            guard state.checkedOut == 0 else { return nil }
            defer { state.idle = [] }
            state.openCount -= state.idle.count
            return state.idle
        })
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

    /// What a read gets when it asks for a reader.
    private enum CheckOut {
        case closed
        case idle(SQLiteReader)
        /// None idle, but fewer than `maximumCount` open: open one.
        case open
    }

    /// Takes an idle reader, or room to open one; `nil` when there is
    /// neither. Under the lock.
    private func takeReader(_ state: inout State) -> CheckOut? {
        if state.isClosed {
            return .closed
        }
        if let reader = state.idle.popLast() {
            state.checkedOut += 1
            return .idle(reader)
        }
        if state.openCount < maximumCount {
            state.openCount += 1
            state.checkedOut += 1
            return .open
        }
        return nil
    }

    private func checkOut() throws -> SQLiteReader {
        // The common case first, in one short critical section: an idle
        // reader (empty_read_tx, point_read_tx).
        let idle = state.withLock { state -> SQLiteReader? in
            guard !state.isClosed, let reader = state.idle.popLast() else { return nil }
            state.checkedOut += 1
            return reader
        }
        if let idle {
            return idle
        }
        switch state.withLockWaiting(until: { takeReader(&$0) }) {
        case .closed: throw closedError()
        case let .idle(reader): return reader
        case .open: return try openReader()
        }
    }

    private func checkOutAsync() async throws -> SQLiteReader {
        let reader = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SQLiteReader?, any Error>) in
            let checkedOut = state.withLock { state -> CheckOut? in
                let checkedOut = takeReader(&state)
                if checkedOut == nil {
                    state.waiters.append(continuation)
                }
                return checkedOut
            }
            switch checkedOut {
            case .closed: continuation.resume(throwing: closedError())
            case let .idle(reader): continuation.resume(returning: reader)
            case .open: continuation.resume(returning: nil)
            case nil: break
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
            let waiter = state.withLock { state -> CheckedContinuation<SQLiteReader?, any Error>? in
                state.openCount -= 1
                state.checkedOut -= 1
                // A waiting read may open one in its place.
                self.state.broadcast()
                let waiter = state.waiters.isEmpty ? nil : state.waiters.removeFirst()
                if waiter != nil {
                    state.openCount += 1
                    state.checkedOut += 1
                }
                return waiter
            }
            waiter?.resume(returning: nil)
            throw error
        }
    }

    private func checkIn(_ reader: SQLiteReader) {
        // The common case, no async read waiting, returns no continuation:
        // an optional continuation out of the lock costs its generic value
        // witnesses on every read (empty_read_tx).
        let isWaited = state.withLock { state -> Bool in
            if !state.waiters.isEmpty {
                return true
            }
            makeIdle(reader, &state)
            return false
        }
        if isWaited {
            handOver(reader)
        }
    }

    /// Gives `reader` to the first async read waiting for one, or makes it
    /// idle if there is none any more.
    private func handOver(_ reader: SQLiteReader) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteReader?, any Error>? in
            if !state.waiters.isEmpty {
                return state.waiters.removeFirst()
            }
            makeIdle(reader, &state)
            return nil
        }
        waiter?.resume(returning: reader)
    }

    /// Puts a checked-out reader back in the free list, and wakes a
    /// synchronous read (or `close()`) that waits for one. Under the lock.
    private func makeIdle(_ reader: SQLiteReader, _ state: inout State) {
        state.checkedOut -= 1
        state.idle.append(reader)
        if state.isClosed {
            self.state.broadcast()
        } else {
            self.state.signal()
        }
    }

    private func closedError() -> DBError {
        DBError.closedDatabase(path: path, operation: .read)
    }
}
