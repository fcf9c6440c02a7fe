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
@Suite("PostgresDB: blocking calls and the cooperative pool", .enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason), suiteTimeLimit(minutes: 1))
struct PostgresCooperativePoolTests {
    /// More transactions than the cooperative pool has threads (one per
    /// processor) wait in `KeyValueStore.setInt` for a row another
    /// transaction holds, then that transaction, suspended meanwhile,
    /// resumes and commits. Were the waits on the pool's threads, the
    /// holder would find no thread to resume on: the waits never end, and
    /// the test task itself, which needs a thread to see them, never runs
    /// again (`lock_timeout` then fails the waits, and the test).
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

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<waiters {
                group.addTask {
                    do {
                        try await db.write { tx in
                            // A wait that outlives this bound is the
                            // deadlock: fail it rather than hang the run.
                            try await PostgresTestServer.execute("SET LOCAL lock_timeout = '30s'", tx)
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
            try await group.waitForAll()
        }
        try await holder.value
        let count = try await db.read { tx in try store.getInt("count", transaction: tx) }
        #expect(count == waiters + 1, "the holder's 1, then one increment per waiter")
        await db.close()
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
