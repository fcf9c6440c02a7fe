import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Commit observation on every backend: tables from SQLite itself on
/// `SQLiteDB` and from the mock finder's declaration on `MockDB`,
/// collections from the key-value store on both.
@Suite("Commit observation")
struct CommitObservationTests {
    /// What an observer received, in order; `flush()` waits until every
    /// delivery enqueued so far ran.
    final class Received: @unchecked Sendable {
        let queue = DispatchQueue(label: "CommitObservationTests.Received")
        private let lock = NSLock()
        private var storage: [DBChanges] = []

        func append(_ changes: DBChanges) {
            lock.withLock { storage.append(changes) }
        }

        /// The deliveries so far, after those already enqueued ran.
        var changes: [DBChanges] {
            queue.sync {}
            return lock.withLock { storage }
        }
    }

    func observe(
        _ db: any DB, tables: Set<String> = [], collections: Set<String> = [], into received: Received
    ) -> DBCommitObservation {
        db.observeCommits(tables: tables, keyValueCollections: collections, queue: received.queue) { changes in
            received.append(changes)
        }
    }

    @Test(arguments: Backend.allCases)
    func anObserverHearsOncePerCommitWithWhatChanged(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let observation = observe(fixture.db, tables: ["message", "audit"], collections: ["kv", "other"], into: received)
        defer { observation.cancel() }
        try fixture.db.write { tx in
            for index in 0..<3 {
                try fixture.messages.insert("m\(index)", into: "message", tx)
            }
            try fixture.messages.insert("a", into: "audit", tx)
            try fixture.store.setInt(1, key: "a", transaction: tx)
            try fixture.store.setInt(2, key: "b", transaction: tx)
            try KeyValueStore(collection: "unwatched").setInt(1, key: "a", transaction: tx)
        }
        try fixture.db.write { tx in try fixture.store.removeValue(forKey: "a", transaction: tx) }
        #expect(received.changes == [
            DBChanges(tables: ["message", "audit"], keyValueCollections: ["kv"]),
            DBChanges(keyValueCollections: ["kv"]),
        ])
    }

    @Test(arguments: Backend.allCases)
    func noObserverHearsAboutARollback(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let observation = observe(fixture.db, tables: ["message"], collections: ["kv"], into: received)
        defer { observation.cancel() }
        let stream = fixture.db.commits(tables: ["message"], keyValueCollections: ["kv"])

        _ = try? await fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            try fixture.messages.insert("m", into: "message", tx)
            throw TestError(id: 1)
        }
        _ = try await fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Void> in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            try fixture.messages.insert("m", into: "message", tx)
            return .rollBack(())
        }
        _ = try? await fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            tx.addFinalization(key: "fail") { _ in throw TestError(id: 2) }
        }
        if let mock = fixture.db as? MockDB {
            mock.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "injected"))
            _ = try? await mock.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        }
        // Then one commit, which is all that is heard.
        try await fixture.db.write { tx in try fixture.store.setInt(5, key: "b", transaction: tx) }

        #expect(received.changes == [DBChanges(keyValueCollections: ["kv"])])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == DBChanges(keyValueCollections: ["kv"]))
    }

    @Test(arguments: Backend.allCases)
    func anObserverDoesNotHearAboutUnrelatedTablesOrCollectionsOrNoOps(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let observation = observe(fixture.db, tables: ["message"], collections: ["kv"], into: received)
        defer { observation.cancel() }
        try fixture.db.write { tx in
            try fixture.messages.insert("a", into: "audit", tx)
            try KeyValueStore(collection: "other").setInt(1, key: "a", transaction: tx)
        }
        // Removing what is not there changes nothing.
        try fixture.db.write { tx in
            try fixture.store.removeValue(forKey: "missing", transaction: tx)
            try fixture.store.removeAll(transaction: tx)
        }
        try fixture.db.write { _ in }
        _ = try fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
        // A mixed commit is reported with only what the observer asked for.
        try fixture.db.write { tx in
            try fixture.messages.insert("m", into: "message", tx)
            try fixture.messages.insert("a", into: "audit", tx)
            try KeyValueStore(collection: "other").setInt(2, key: "a", transaction: tx)
        }
        #expect(received.changes == [DBChanges(tables: ["message"])])
    }

    @Test(arguments: Backend.allCases)
    func tableNamesMatchCaseInsensitivelyAndComeBackAsObserved(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let observation = observe(fixture.db, tables: ["Message"], into: received)
        defer { observation.cancel() }
        try fixture.db.write { tx in try fixture.messages.insert("m", into: "message", tx) }
        #expect(received.changes == [DBChanges(tables: ["Message"])])
    }

    /// An observer that names one table in two cases hears both names, on
    /// every backend and every time, whatever the order of a `Set`.
    @Test(arguments: Backend.allCases)
    func aTableObservedUnderTwoSpellingsComesBackUnderBoth(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        var observations = [observe(fixture.db, tables: ["message", "MESSAGE", "audit"], into: received)]
        // More observers, each with its own sets: none may pick a spelling.
        for _ in 0..<8 {
            observations.append(observe(fixture.db, tables: ["MESSAGE", "message"], into: received))
        }
        defer { observations.forEach { $0.cancel() } }
        try fixture.db.write { tx in try fixture.messages.insert("m", into: "message", tx) }
        #expect(received.changes == Array(repeating: DBChanges(tables: ["message", "MESSAGE"]), count: 9))
    }

    /// Writers on threads and in tasks; each write takes the next sequence
    /// number inside its transaction and changes table `t(n % 8)`. The
    /// observers must hear the tables in sequence order: commit order.
    @Test(arguments: Backend.allCases)
    func observersHearCommitsInCommitOrderAcrossThreads(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let tables = Set((0..<8).map { "t\($0)" })
        let received = Received()
        let observation = observe(fixture.db, tables: tables, into: received)
        defer { observation.cancel() }
        let stream = fixture.db.commits(tables: tables)
        let writers = 4
        let writesPerWriter = 10
        let total = 2 * writers * writesPerWriter

        @Sendable func write(_ tx: DBWriteTransaction) throws {
            let number = try fixture.store.getInt("sequence", defaultValue: 0, transaction: tx) + 1
            try fixture.store.setInt(number, key: "sequence", transaction: tx)
            try fixture.messages.insert("\(number)", into: "t\(number % 8)", tx)
        }
        let threadsDone = DispatchGroup()
        for _ in 0..<writers {
            threadsDone.enter()
            Thread.detachNewThread {
                defer { threadsDone.leave() }
                for _ in 0..<writesPerWriter {
                    try? fixture.db.write { tx in try write(tx) }
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<writers {
                group.addTask {
                    for _ in 0..<writesPerWriter {
                        try await fixture.db.write { tx in try write(tx) }
                    }
                }
            }
            try await group.waitForAll()
        }
        await withCheckedContinuation { continuation in
            threadsDone.notify(queue: .global()) { continuation.resume() }
        }

        let expected: [DBChanges] = (1...total).map { (number: Int) -> DBChanges in
            DBChanges(tables: ["t\(number % 8)"])
        }
        #expect(try fixture.value("sequence") == total)
        #expect(received.changes == expected)
        var streamed: [DBChanges] = []
        for await changes in stream {
            streamed.append(changes)
            if streamed.count == total { break }
        }
        #expect(streamed == expected)
    }

    @Test(arguments: Backend.allCases)
    func theCallbackRunsOnItsQueueAfterTheCommitAndMayOpenTransactions(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let queue = DispatchQueue(label: "observer")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "observer")
        let log = EventLog()
        let observation = fixture.db.observeCommits(keyValueCollections: ["kv"], queue: queue) { changes in
            log.append("on \(DispatchQueue.getSpecific(key: key) ?? "another queue")")
            let seen: Int?? = try? fixture.db.read { tx in try fixture.store.getInt("a", transaction: tx) }
            let text: String
            switch seen {
            case let .some(.some(value)): text = String(value)
            case .some(.none): text = "nil"
            case .none: text = "error"
            }
            log.append("saw \(text)")
            // Writing from the callback works (an unobserved collection).
            try? fixture.db.write { tx in try KeyValueStore(collection: "log").setInt(1, key: "a", transaction: tx) }
        }
        defer { observation.cancel() }
        try fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        queue.sync {}
        #expect(log.events == ["on observer", "saw 1"])
        #expect(try fixture.db.read { tx in try KeyValueStore(collection: "log").getInt("a", transaction: tx) } == 1)
    }

    @Test(arguments: Backend.allCases)
    func cancellingOrReleasingAnObservationStopsIt(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let sentinel = Received()
        let sentinelObservation = observe(fixture.db, collections: ["kv"], into: sentinel)
        defer { sentinelObservation.cancel() }
        let cancelled = observe(fixture.db, collections: ["kv"], into: received)
        do {
            _ = observe(fixture.db, collections: ["kv"], into: received)
        }
        try fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        // Heard once: by the observation not cancelled yet, not by the
        // released one.
        #expect(received.changes == [DBChanges(keyValueCollections: ["kv"])])
        cancelled.cancel()
        cancelled.cancel()
        try fixture.db.write { tx in try fixture.store.setInt(2, key: "a", transaction: tx) }
        #expect(sentinel.changes.count == 2, "both commits were delivered to a live observer")
        #expect(received.changes == [DBChanges(keyValueCollections: ["kv"])], "the cancelled one heard nothing more")
        sentinelObservation.cancel()
        #expect(scope(of: fixture.db).commitObservers.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aStreamBuffersCommitsFromItsCreationAndStopsWhenItsTaskIsCancelled(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        let stream = fixture.db.commits(tables: ["message"], keyValueCollections: ["kv"])
        // Committed before anyone iterates: buffered, in order.
        try await fixture.db.write { tx in try store.setInt(1, key: "a", transaction: tx) }
        try await fixture.db.write { tx in try fixture.messages.insert("m", into: "message", tx) }
        let firstTwo = Task {
            var received: [DBChanges] = []
            for await changes in stream {
                received.append(changes)
                if received.count == 2 { break }
            }
            return received
        }
        #expect(await firstTwo.value == [DBChanges(keyValueCollections: ["kv"]), DBChanges(tables: ["message"])])

        // A task iterating another stream is cancelled: its observation ends.
        let registry = scope(of: fixture.db).commitObservers
        let other = fixture.db.commits(keyValueCollections: ["kv"])
        let started = AtomicFlag(false)
        let consumer = Task {
            started.store(true, ordering: .releasing)
            for await _ in other {}
        }
        while !started.load(ordering: .acquiring) {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        consumer.cancel()
        await consumer.value
        // `stream` is kept alive below; only `other`'s observation must end.
        // Only the first stream's observation is left, once the second's
        // ended (a wait with no deadline: it ends, or the test hangs).
        while registry.count > 1 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(registry.count == 1, "the first stream's observation is left")
        withExtendedLifetime(stream) {}
    }

    @Test func aStreamEndsWhenItsDatabaseIsDeallocated() async {
        var db: MockDB? = MockDB()
        let stream = db!.commits(keyValueCollections: ["kv"])
        _ = try? await db!.write { tx in try KeyValueStore(collection: "kv").setInt(1, key: "a", transaction: tx) }
        db = nil
        var received: [DBChanges] = []
        for await changes in stream {
            received.append(changes)
        }
        #expect(received == [DBChanges(keyValueCollections: ["kv"])])
    }

    private func scope(of db: any DB) -> DatabaseScope {
        (db as! any DatabaseScopeProviding).databaseScope
    }
}
