import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Value observation (`db.observe`) on every backend: the fetch's tables
/// come from SQLite's statements on `SQLiteDB` and from the mock finder's
/// declaration on `MockDB`; key-value collections from the store on both.
/// Every wait is on a commit the test made: nothing sleeps or polls.
@Suite("Value observation")
struct ValueObservationTests {
    /// A value that is not `Equatable`, so that every fetch is delivered.
    struct Snapshot: Sendable {
        let a: Int
        let messages: Int
    }

    /// Counts the fetches.
    final class Fetches: Sendable {
        private let count = LockedCount()
        var value: Int { count.value }
        func increment() { count.increment() }
    }

    /// Reads table `message` (row count) and key `a` of the `kv` collection.
    static func snapshot(_ fixture: Fixture, _ fetches: Fetches) -> @Sendable (DBReadTransaction) throws -> Snapshot {
        { tx in
            fetches.increment()
            #expect(!(tx is DBWriteTransaction))
            return Snapshot(
                a: try fixture.store.getInt("a", transaction: tx) ?? 0,
                messages: try fixture.messages.count(in: "message", tx))
        }
    }

    @Test(arguments: Backend.allCases)
    func theFirstValueIsFetchedWhenIterationStarts(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        try await fixture.db.write { tx in try fixture.store.setInt(7, key: "a", transaction: tx) }
        let fetches = Fetches()
        let observation = fixture.db.observe(Self.snapshot(fixture, fetches))
        #expect(fetches.value == 0)
        var values = observation.makeAsyncIterator()
        #expect(try await values.next()?.a == 7)
        #expect(fetches.value == 1)
    }

    @Test(arguments: Backend.allCases)
    func onlyCommitsThatChangeWhatTheFetchReadMakeTheValueStale(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let fetches = Fetches()
        var values = fixture.db.observe(Self.snapshot(fixture, fetches)).makeAsyncIterator()
        _ = try await values.next()

        // Another table, another collection: not read by the fetch.
        try await fixture.db.write { tx in
            try fixture.messages.insert("x", into: "audit", tx)
            try KeyValueStore(collection: "other").setInt(1, key: "a", transaction: tx)
        }
        // The application's own connection of an adopted queue is never
        // traced: its observations fetch again after every commit.
        #expect(values.isStale == (backend == .sqliteAdoptedQueue))

        try await fixture.db.write { tx in try fixture.messages.insert("m", into: "message", tx) }
        #expect(values.isStale)
        _ = try await values.next()
        #expect(fetches.value == 2)

        try await fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        #expect(values.isStale)
        #expect(try await values.next()?.a == 1)
        #expect(fetches.value == 3)
    }

    @Test(arguments: Backend.allCases)
    func severalCommitsBeforeNextCostOneFetch(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let fetches = Fetches()
        var values = fixture.db.observe(Self.snapshot(fixture, fetches)).makeAsyncIterator()
        _ = try await values.next()
        for value in 1...3 {
            try await fixture.db.write { tx in try fixture.store.setInt(value, key: "a", transaction: tx) }
        }
        #expect(try await values.next()?.a == 3)
        #expect(fetches.value == 2)
    }

    @Test(arguments: Backend.allCases)
    func aRolledBackWriteChangesNothing(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let fetches = Fetches()
        var values = fixture.db.observe(Self.snapshot(fixture, fetches)).makeAsyncIterator()
        _ = try await values.next()
        await #expect(throws: TestError.self) {
            try await fixture.db.write { tx in
                try fixture.store.setInt(1, key: "a", transaction: tx)
                try fixture.messages.insert("m", into: "message", tx)
                throw TestError(id: 1)
            }
        }
        #expect(!values.isStale)
    }

    @Test(arguments: Backend.allCases)
    func anEqualValueIsNotDeliveredAgain(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let fetched = AsyncStream<Int>.makeStream()
        let observation = fixture.db.observe { tx in
            let value = try fixture.store.getInt("a", transaction: tx) ?? 0
            fetched.continuation.yield(value)
            return value
        }
        var fetches = fetched.stream.makeAsyncIterator()
        let delivered = Task {
            var values: [Int] = []
            for try await value in observation {
                values.append(value)
                if values.count == 2 { break }
            }
            return values
        }
        #expect(await fetches.next() == 0)
        // Same value written again: fetched, not delivered.
        try await fixture.db.write { tx in try fixture.store.setInt(0, key: "a", transaction: tx) }
        #expect(await fetches.next() == 0)
        try await fixture.db.write { tx in try fixture.store.setInt(2, key: "a", transaction: tx) }
        #expect(await fetches.next() == 2)
        #expect(try await delivered.value == [0, 2])
    }

    @Test(arguments: Backend.allCases)
    func explicitTrackingReplacesWhatTheFetchReads(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let fetches = Fetches()
        var values = fixture.db.observe(tracking: DBRegion(tables: ["AUDIT"]), Self.snapshot(fixture, fetches))
            .makeAsyncIterator()
        _ = try await values.next()
        try await fixture.db.write { tx in
            try fixture.store.setInt(1, key: "a", transaction: tx)
            try fixture.messages.insert("m", into: "message", tx)
        }
        #expect(!values.isStale)
        try await fixture.db.write { tx in try fixture.messages.insert("x", into: "audit", tx) }
        #expect(values.isStale)
        #expect(try await values.next()?.a == 1)
    }

    @Test(arguments: Backend.allCases)
    func aFetchThatReadsNothingKnownFetchesAfterEveryCommit(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        var values = fixture.db.observe { _ in 1 }.makeAsyncIterator()
        #expect(try await values.next() == 1)
        try await fixture.db.write { tx in try fixture.messages.insert("x", into: "audit", tx) }
        #expect(values.isStale)
    }

    @Test(arguments: Backend.allCases)
    func aFetchErrorEndsTheSequence(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let observation = fixture.db.observe { tx in
            let value = try fixture.store.getInt("a", transaction: tx) ?? 0
            if value == 1 { throw TestError(id: 1) }
            return value
        }
        var values = observation.makeAsyncIterator()
        #expect(try await values.next() == 0)
        try await fixture.db.write { tx in try fixture.store.setInt(1, key: "a", transaction: tx) }
        await #expect(throws: TestError(id: 1)) { _ = try await values.next() }
        #expect(try await values.next() == nil)
    }

    @Test(arguments: Backend.allCases)
    func cancellingTheTaskEndsTheSequence(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let started = AsyncStream<Void>.makeStream()
        let observation = fixture.db.observe { tx in try fixture.store.getInt("a", transaction: tx) ?? 0 }
        let task = Task {
            var count = 0
            for try await _ in observation {
                count += 1
                started.continuation.yield()
            }
            return count
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        #expect(try await task.value == 1)
    }

    /// Writers on several threads while a task observes: the values only
    /// grow, and the last one is the final count (no commit is missed).
    @Test(arguments: Backend.allCases)
    func anObserverOfConcurrentWritersSeesTheFinalValue(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let writers = 4, writes = 50
        let observation = fixture.db.observe { tx in try fixture.store.getInt("a", transaction: tx) ?? 0 }
        let observer = Task {
            var values: [Int] = []
            for try await value in observation {
                values.append(value)
                if value == writers * writes { break }
            }
            return values
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<writers {
                group.addTask {
                    for _ in 0..<writes {
                        try fixture.db.write { tx in
                            let value = try fixture.store.getInt("a", transaction: tx) ?? 0
                            try fixture.store.setInt(value + 1, key: "a", transaction: tx)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let values = try await observer.value
        #expect(values.last == writers * writes)
        #expect(values == values.sorted() && Set(values).count == values.count)
    }

    @Test(arguments: Backend.allCases)
    func droppingTheIteratorStopsObserving(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let observers = (fixture.db as! any DatabaseScopeProviding).databaseScope.commitObservers
        let before = observers.count
        do {
            var values = fixture.db.observe { _ in 1 }.makeAsyncIterator()
            _ = try await values.next()
            #expect(observers.count == before + 1)
        }
        #expect(observers.count == before)
    }
}

/// A counter behind a lock.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
