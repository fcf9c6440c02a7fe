#if Postgres
import Foundation
import TransactionKit

/// The threads on which a ``PostgresDB``'s transactions run: one thread per
/// running transaction, none of them a thread of Swift's cooperative pool.
///
/// A transaction takes an idle thread, or starts one when none is idle,
/// and keeps it until it ends (``PostgresTransactionExecutor``). So there
/// are as many busy threads as transactions hold a connection (at most
/// ``PostgresDB/Configuration/maximumConnections``, more only while a pool
/// replaced after an outage finishes its transactions), and a transaction
/// blocked in a synchronous call can never keep another one from its
/// thread. A thread that finishes its transaction waits for the next one,
/// unless `idleLimit` threads already wait; ``shutDown()`` ends the
/// waiting threads, and each busy one when its transaction ends.
///
/// On Apple platforms below macOS 15, iOS 18, tvOS 18 and watchOS 11,
/// which have no task executors, ``run(_:)`` runs the transaction where its
/// task runs, on the cooperative pool.
final class PostgresTransactionThreads: Sendable {
    private struct State: Sendable {
        var idle: [Worker] = []
        var isShutDown = false
    }

    private let state = LockedValue(State())
    private let idleLimit: Int

    /// The name of the threads (`Thread.name`).
    static let threadName = "TransactionKitPostgres transaction"
    /// The key under which a transaction thread's `threadDictionary`
    /// holds `true`.
    static let threadMark = "TransactionKitPostgres.transactionThread"

    /// - Parameter idleLimit: How many threads wait for a transaction at
    ///   most; a thread that would be one more ends.
    init(idleLimit: Int) {
        self.idleLimit = max(idleLimit, 1)
    }

    /// Runs one transaction, `body`, on a thread of its own (see the type's
    /// documentation).
    func run<R>(_ body: () async throws -> R) async throws -> R {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return try await PostgresTransactionExecutor.run(on: self, body)
        }
        return try await body()
    }

    /// Runs `work` on an idle thread, or on a new one when none is idle.
    func start(_ work: @escaping @Sendable () -> Void) {
        if let worker = state.withLock({ $0.idle.popLast() }) {
            worker.hand(work)
            return
        }
        let worker = Worker()
        let thread = Thread { [self] in
            Self.markCurrentThread()
            var work = work
            while true {
                work()
                guard park(worker), let next = worker.next() else { return }
                work = next
            }
        }
        thread.name = Self.threadName
        thread.start()
    }

    /// Marks the calling thread as a transaction thread: `true` under
    /// ``threadMark`` in its `threadDictionary` (on Linux, `Thread.name`
    /// does not reach the system's name of the thread).
    private static func markCurrentThread() {
        Thread.current.threadDictionary[threadMark] = true
    }

    /// Ends the idle threads now, and each busy one once its transaction
    /// ended.
    func shutDown() {
        let idle = state.withLock { state -> [Worker] in
            state.isShutDown = true
            defer { state.idle = [] }
            return state.idle
        }
        for worker in idle {
            worker.stop()
        }
    }

    /// Makes `worker` idle, or returns `false` when its thread should end.
    private func park(_ worker: Worker) -> Bool {
        state.withLock { state in
            guard !state.isShutDown, state.idle.count < idleLimit else { return false }
            state.idle.append(worker)
            return true
        }
    }

    /// One thread's mailbox: the next work it runs, or its end.
    private final class Worker: Sendable {
        private struct Mailbox: Sendable {
            var work: (@Sendable () -> Void)?
            var isStopped = false
        }

        private let mailbox = LockedValue(Mailbox())

        func hand(_ work: @escaping @Sendable () -> Void) {
            mailbox.withLock { mailbox in
                mailbox.work = work
                self.mailbox.signal()
            }
        }

        func stop() {
            mailbox.withLock { mailbox in
                mailbox.isStopped = true
                self.mailbox.signal()
            }
        }

        /// Waits for work; `nil` once stopped.
        func next() -> (@Sendable () -> Void)? {
            mailbox.withLockWaiting { mailbox -> (@Sendable () -> Void)?? in
                if let work = mailbox.work {
                    mailbox.work = nil
                    return .some(work)
                }
                return mailbox.isStopped ? .some(nil) : nil
            }
        }
    }
}
#endif
