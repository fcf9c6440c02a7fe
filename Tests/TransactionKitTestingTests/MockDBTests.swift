import Testing
import TransactionKit
import TransactionKitTesting

@Suite("MockDB")
struct MockDBTests {
    @Test func countsReadsWritesCommitsAndRollbacks() throws {
        let db = MockDB()
        try db.read { _ in }
        try db.write { _ in }
        _ = try? db.write { _ in throw Failure() }
        #expect(db.statistics == MockDB.Statistics(reads: 1, writes: 2, commits: 1, rollbacks: 1))
        db.resetStatistics()
        #expect(db.statistics == MockDB.Statistics())
    }

    @Test func twoMockDBsAreIndependent() throws {
        let first = MockDB()
        let second = MockDB()
        try first.write { _ in }
        #expect(first.writeCount == 1)
        #expect(second.writeCount == 0)
    }

    @Test func anInjectedCommitFailureRollsBackWithoutCompletions() throws {
        let db = MockDB()
        let fault = DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "injected")
        db.failNextCommit(with: fault)
        nonisolated(unsafe) var events: [String] = []
        let error = #expect(throws: DBError.self) {
            try db.write { tx in
                tx.addFinalization(key: "f") { _ in events.append("finalization") }
                tx.addSyncCompletion { events.append("completion") }
            }
        }
        #expect(error?.kind == .diskFull)
        #expect(events == ["finalization"])
        #expect(db.rollbackCount == 1)
        try db.write { tx in tx.addSyncCompletion { events.append("next write commits") } }
        #expect(events == ["finalization", "next write commits"])
    }

    @Test func pendingAsyncCompletionsCanBeAwaited() async throws {
        let db = MockDB()
        try await db.write { tx in
            tx.addAsyncCompletion(on: .global()) {}
        }
        await db.waitForAsyncCompletions()
        #expect(db.pendingAsyncCompletionCount == 0)
    }

    @Test func aDBErrorNamesThePathAndTheRemedy() {
        let error = DBError(kind: .readOnly, operation: .commit, path: "/data/app.sqlite", code: DBError.Code(system: "SQLite result code", value: "8"), message: "attempt to write a readonly database")
        #expect(error.description == "database is read-only while committing to /data/app.sqlite (SQLite result code 8: attempt to write a readonly database). Check the permissions of the file, of its -wal and -shm files and of its directory, and that the volume is writable.")
    }

    struct Failure: Error {}
}
