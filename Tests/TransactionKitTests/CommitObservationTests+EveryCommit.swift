import Dispatch
import Testing
import TransactionKit
import TransactionKitTesting

/// `observeCommits` and `commits()` given no table and no collection hear
/// every commit, with all it changed; an empty filter hears nothing.
extension CommitObservationTests {
    @Test(arguments: Backend.allCases)
    func anObserverWithoutTablesOrCollectionsHearsEveryCommitButNoRollback(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let observation = fixture.db.observeCommits(queue: received.queue) { changes in received.append(changes) }
        defer { observation.cancel() }
        let stream = fixture.db.commits()

        try await fixture.db.write { tx in
            try fixture.messages.insert("m", into: "message", tx)
            try fixture.store.setInt(1, key: "a", transaction: tx)
        }
        _ = try? await fixture.db.write { tx in
            try fixture.messages.insert("lost", into: "audit", tx)
            throw TestError(id: 1)
        }
        // A commit that changed nothing is a commit too.
        try await fixture.db.write { _ in }
        try await fixture.db.write { tx in try KeyValueStore(collection: "other").setInt(2, key: "b", transaction: tx) }

        let expected = [
            DBChanges(tables: ["message"], keyValueCollections: ["kv"]),
            DBChanges(),
            DBChanges(keyValueCollections: ["other"]),
        ]
        #expect(received.changes == expected)
        var iterator = stream.makeAsyncIterator()
        var streamed: [DBChanges] = []
        for _ in expected {
            streamed.append(try #require(await iterator.next()))
        }
        #expect(streamed == expected)
    }

    @Test(arguments: Backend.allCases)
    func anObserverOfAnEmptyFilterHearsNothing(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let received = Received()
        let observation = fixture.db.observeCommits(tables: [], queue: received.queue) { changes in
            received.append(changes)
        }
        defer { observation.cancel() }
        try fixture.db.write { tx in
            try fixture.messages.insert("m", into: "message", tx)
            try fixture.store.setInt(1, key: "a", transaction: tx)
        }
        #expect(received.changes.isEmpty)
    }
}
