import Testing
import TransactionKit
import TransactionKitTesting

// The async manager of Guides/Testing.md ("Async managers on MockDB"): a
// finder that awaits, a manager written against `AsyncDB`, and its unit
// test on `MockDB` with a `MockMethod` mock.

// snippet:begin async-manager
protocol AsyncNoteFinding: Sendable {
    func insert(_ text: String, _ tx: DBWriteTransaction) async throws -> Int
    func count(_ tx: DBReadTransaction) async throws -> Int
}

struct AsyncNoteManager: Sendable {
    let db: any AsyncDB
    let notes: any AsyncNoteFinding

    /// Adds a note unless the notebook is full; returns its id.
    func add(_ text: String, limit: Int) async throws -> Int? {
        try await db.writeOrRollBack { tx in
            let id = try await notes.insert(text, tx)
            return try await notes.count(tx) > limit ? .rollBack(nil) : .commit(id)
        }
    }
}
// snippet:end async-manager

// snippet:begin async-manager-mock
final class AsyncNoteFinderMock: AsyncNoteFinding {
    let insert = MockMethod<String, Int>()
    let count = MockMethod<Void, Int>()

    func insert(_ text: String, _ tx: DBWriteTransaction) async throws -> Int {
        try insert.call(text, tx, in: self)
    }

    func count(_ tx: DBReadTransaction) async throws -> Int {
        try count.call(tx, in: self)
    }
}
// snippet:end async-manager-mock

@Suite("Async manager on MockDB")
struct AsyncManagerExampleTests {
    // snippet:begin async-manager-test
    @Test func aFullNotebookRollsTheNoteBack() async throws {
        let db = MockDB()
        let notes = AsyncNoteFinderMock()
        notes.insert.returns(7)
        notes.count.returns(11)

        let id = try await AsyncNoteManager(db: db, notes: notes).add("milk", limit: 10)

        #expect(id == nil)
        #expect(notes.insert.calls == ["milk"])
        #expect(db.statistics == MockDB.Statistics(writes: 1, rollbacks: 1))
    }
    // snippet:end async-manager-test

    @Test func aNoteUnderTheLimitCommits() async throws {
        let db = MockDB()
        let notes = AsyncNoteFinderMock()
        notes.insert.returns(7)
        notes.count.returns(3)
        #expect(try await AsyncNoteManager(db: db, notes: notes).add("milk", limit: 10) == 7)
        #expect(db.commitCount == 1)
    }
}
