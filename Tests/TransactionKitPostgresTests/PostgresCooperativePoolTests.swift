#if Postgres
import Foundation
import Testing
import TransactionKit
import TransactionKitPostgres
import TransactionKitTestSupport

/// The synchronous calls a `PostgresDB` block may make (the key-value
/// store, the synchronous `inSavepoint`) wait for the server on the
/// transaction's own thread, never on one of Swift's cooperative pool: a
/// call that waits for a row lock must leave the pool free for the
/// transaction that holds the lock, or nothing moves again.
@Suite("PostgresDB: blocking calls and the cooperative pool", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresCooperativePoolTests {
    /// More transactions than the cooperative pool has threads (one per
    /// processor) wait in `KeyValueStore.setInt` for a row another
    /// transaction holds, then that transaction, suspended meanwhile,
    /// resumes and commits. Were the waits on the pool's threads, the
    /// holder would find no thread to resume on, and the test task itself,
    /// which needs a thread to see the waits, would never run again.
    ///
    /// So each waiter first checks where its blocking call is about to run
    /// (no suspension between the check and the call): on a transaction
    /// thread, or the test fails at once, its transaction rolled back,
    /// instead of deadlocking.
    @Test func keyValueCallsWaitingForARowLockLeaveThePoolToTheLockHolder() async throws {
        let waiters = min(ProcessInfo.processInfo.activeProcessorCount, 15) + 1
        let db = try await PostgresTestServer.open { configuration in
            // The holder, the waiters and the reads that watch them, each
            // on a connection; the waiters collide on one row once the
            // holder commits, and retry until each of them committed.
            configuration.maximumConnections = waiters + 2
            configuration.conflictRetries = 1_000
        }
        let store = KeyValueStore(collection: "pool")
        let holding = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await db.write { tx in
                // Inserts the row: the waiters' inserts of the same key
                // wait for this transaction to end.
                try store.setInt(1, key: "count", transaction: tx)
                holding.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in holding.stream { break }

        // The holder ends however the waiters end: its task is awaited.
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<waiters {
                    group.addTask {
                        do {
                            try await db.write { tx in
                                // Resumed after a query, as a block is
                                // before its blocking calls.
                                _ = try await PostgresTestServer.integer("SELECT 1", tx)
                                try Self.requireATransactionThread()
                                let count = try store.getInt("count", transaction: tx) ?? 0
                                try store.setInt(count + 1, key: "count", transaction: tx)
                            }
                        } catch {
                            release.continuation.finish()
                            throw error
                        }
                    }
                }
                group.addTask {
                    // Every waiter waits for the holder's row lock (seen by the
                    // server), then the holder may commit.
                    while try await Self.sessionsWaitingForALock(on: db) < waiters {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    release.continuation.finish()
                }
                // The first error ends the wait and cancels the watcher
                // (`waitForAll()` would wait for it first: forever).
                for try await _ in group {}
            }
        } catch {
            failure = error
        }
        release.continuation.finish()
        try await holder.value
        if let failure { throw failure }
        let count = try await db.read { tx in try store.getInt("count", transaction: tx) }
        #expect(count == waiters + 1, "the holder's 1, then one increment per waiter")
        await db.close()
    }

    /// Throws unless the calling thread is one of `PostgresDB`'s
    /// transaction threads (`PostgresTransactionThreads` marks them), where
    /// a synchronous call may block: not one of the cooperative pool's.
    static func requireATransactionThread() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        // PostgresTransactionThreads.threadMark
        let isTransactionThread = Thread.current.threadDictionary["TransactionKitPostgres.transactionThread"] as? Bool
        try #require(isTransactionThread == true, "a blocking call would run on a thread of the cooperative pool")
    }

    /// The sessions of `db`'s key-value table that wait for a lock.
    static func sessionsWaitingForALock(on db: PostgresDB) async throws -> Int {
        try await db.read { tx in
            try await PostgresTestServer.integer(
                """
                SELECT count(*)::BIGINT FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()
                  AND query LIKE '%\(db.configuration.keyValueTable)%'
                """, tx) ?? 0
        }
    }
}
#endif
