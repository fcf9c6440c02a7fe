import Foundation
import Testing
import TransactionKit
import TransactionKitTesting

/// Isolation between concurrent async transactions.
extension AsyncDBBehaviourTests {
    /// A write suspended in the middle of its block holds the database's
    /// write serialization; a read beside it sees the last commit only.
    @Test(arguments: AsyncBackend.withConcurrentReads)
    func aReadBesideASuspendedWriteDoesNotSeeItsChanges(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        try await fixture.db.write { tx in try await fixture.store.setInt(1, key: "a", transaction: tx) }
        let written = AsyncSignal()
        let checked = AsyncSignal()
        async let writer: Void = fixture.db.write { tx in
            try await fixture.store.setInt(2, key: "a", transaction: tx)
            written.signal()
            await checked.wait()
        }
        await written.wait()
        let during = try await fixture.db.read { tx in
            let first = try await fixture.store.getInt("a", transaction: tx)
            await Task.yield()
            return first
        }
        checked.signal()
        try await writer
        #expect(during == 1, "the uncommitted 2 stays invisible")
        #expect(try await fixture.value("a") == 2)
    }

    /// A read keeps its snapshot while it is suspended, whatever commits
    /// meanwhile.
    @Test(arguments: AsyncBackend.withConcurrentReads)
    func aSuspendedReadKeepsItsSnapshot(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        try await fixture.db.write { tx in try await fixture.store.setInt(1, key: "a", transaction: tx) }
        let values = try await fixture.db.read { tx in
            let before = try await fixture.store.getInt("a", transaction: tx)
            // Another task commits while this read is suspended.
            try await Task {
                try await fixture.db.write { tx in try await fixture.store.setInt(2, key: "a", transaction: tx) }
            }.value
            return [before, try await fixture.store.getInt("a", transaction: tx)]
        }
        #expect(values == [1, 1])
        #expect(try await fixture.value("a") == 2)
    }

    /// Concurrent writes whose blocks suspend between reading and writing
    /// lose no increment: `MockDB` and `SQLiteDB` run them one at a time
    /// (no block begins while another is suspended); `PostgresDB` runs them
    /// side by side at the serializable level, and retries the ones that
    /// conflict (so their blocks may run more than once).
    ///
    /// The writes are few (each a durable commit: on a file, one `fsync`)
    /// and the checks are of the mechanism, never of the time it takes:
    /// how long the writes take is the benchmarks' business.
    @Test(arguments: AsyncBackend.allCases)
    func concurrentSuspendingWritesSerializeAndLoseNoIncrement(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        let tasks = 8
        let incrementsPerTask = 25
        let unguarded = UnguardedCounter()
        let guarded = LockedCounter()
        let blocks = OverlapGauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for index in 0..<incrementsPerTask {
                        try await fixture.db.write { tx in
                            blocks.enter()
                            defer { blocks.leave() }
                            let count = try await fixture.store.getInt("count", transaction: tx) ?? 0
                            await Task.yield()
                            // Unsynchronized on purpose where writes are
                            // serialized (a race would show); PostgresDB's
                            // writes run side by side, so count under a lock.
                            if backend.serializesWrites {
                                unguarded.value += 1
                            } else {
                                guarded.increment()
                            }
                            try await fixture.store.setInt(count + 1, key: "count", transaction: tx)
                        }
                        if index % 5 == 0 {
                            _ = try await fixture.db.read { tx in try await fixture.store.getInt("count", transaction: tx) }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        if backend.serializesWrites {
            #expect(blocks.maximum == 1, "no write block began while another was suspended")
            #expect(unguarded.value == tasks * incrementsPerTask, "one block run per write")
        } else {
            #expect(guarded.value >= tasks * incrementsPerTask)
        }
        #expect(try await fixture.value("count") == tasks * incrementsPerTask)
    }

    /// Two tasks, each in a transaction of its own on the same database,
    /// interleaving on the same threads: no nested-transaction misuse.
    @Test(arguments: AsyncBackend.allCases)
    func transactionsOfDifferentTasksAreNotNested(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for _ in 0..<20 {
                        try await fixture.db.read { tx in
                            await Task.yield()
                            _ = try await fixture.store.getInt("a", transaction: tx)
                            await Task.yield()
                        }
                        try await fixture.db.write { tx in
                            await Task.yield()
                            try await fixture.store.setInt(task, key: "t\(task)", transaction: tx)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await fixture.value("t3") == 3)
    }

    /// A child task inherits the parent's task-local values, yet it is
    /// another task: its own read is not nested in the parent's write.
    @Test(arguments: AsyncBackend.withConcurrentReads)
    func aChildTaskMayOpenItsOwnReadWhileItsParentWrites(_ backend: AsyncBackend) async throws {
        let fixture = try await backend.makeFixture()
        try await fixture.db.write { tx in try await fixture.store.setInt(1, key: "a", transaction: tx) }
        let seen = try await fixture.db.write { tx in
            try await fixture.store.setInt(2, key: "a", transaction: tx)
            async let child = fixture.db.read { tx in try await fixture.store.getInt("a", transaction: tx) }
            return try await child
        }
        #expect(seen == 1, "the child's read sees the last commit, not the parent's write")
    }
}
