import Dispatch
import Testing
import TransactionKit
import TransactionKitTesting

/// A finder that writes, and its mock: the mock declares the table its
/// insert changes in one line, so that commit observers hear about it on
/// `MockDB`.
protocol NoteFinding {
    func insert(_ text: String, author: String, _ tx: DBWriteTransaction) throws -> Int
    func latest(_ tx: DBReadTransaction) throws -> String?
    func cachedCount(for author: String) -> Int
}

final class NoteFinderMock: NoteFinding, Sendable {
    let insert = MockMethod<(text: String, author: String), Int>()
    let latest = MockMethod<Void, String?>()
    let cachedCount = MockMethod<String, Int>()

    func insert(_ text: String, author: String, _ tx: DBWriteTransaction) throws -> Int {
        try insert.call((text, author), tx, in: self)
    }

    func latest(_ tx: DBReadTransaction) throws -> String? {
        try latest.call(tx, in: self)
    }

    func cachedCount(for author: String) -> Int {
        cachedCount.callWithoutThrowing(author, in: self)
    }
}

@Suite("MockMethod: the transaction and declared changes")
struct MockMethodTransactionTests {
    let db = MockDB()
    let notes = NoteFinderMock()
    let queue = DispatchQueue(label: "MockMethodTransactionTests")
    let received = Locked<[DBChanges]>([])

    /// Observes `tables`; read ``heard`` to wait for the deliveries so far.
    func observe(_ tables: Set<String>) -> DBCommitObservation {
        let received = received
        return db.observeCommits(tables: tables, queue: queue) { changes in received.withValue { $0.append(changes) } }
    }

    var heard: [DBChanges] {
        queue.sync {}
        return received.value
    }

    struct Offline: Error {}

    @Test func aDeclaredChangeReachesTheObserversOnceWhenTheWriteCommits() throws {
        let observation = observe(["note"])
        defer { observation.cancel() }
        let unrelated = Locked(0)
        let other = db.observeCommits(tables: ["user"], queue: queue) { _ in unrelated.withValue { $0 += 1 } }
        defer { other.cancel() }
        notes.insert.returns(1)
        notes.insert.declaresChange(table: "note")
        notes.insert.declaresChange(table: "note")   // declared once

        try db.write { tx in
            _ = try notes.insert("a", author: "ann", tx)
            _ = try notes.insert("b", author: "ann", tx)
            #expect(heard == [], "not before the commit")
        }
        try db.write { tx in _ = try notes.insert("c", author: "bob", tx) }

        #expect(heard == [DBChanges(tables: ["note"]), DBChanges(tables: ["note"])])
        #expect(unrelated.value == 0)
        #expect(notes.insert.calls.map(\.text) == ["a", "b", "c"])
    }

    @Test func severalTablesAreDeclaredTogether() throws {
        let observation = observe(["note", "audit"])
        defer { observation.cancel() }
        notes.insert.returns(1)
        notes.insert.declaresChange(table: "note")
        notes.insert.declaresChange(table: "audit")

        try db.write { tx in _ = try notes.insert("a", author: "ann", tx) }

        #expect(heard == [DBChanges(tables: ["note", "audit"])])
    }

    @Test func aRolledBackWriteOrAFailedCallIsNotHeard() throws {
        let observation = observe(["note"])
        defer { observation.cancel() }
        notes.insert.returns(1)
        notes.insert.declaresChange(table: "note")

        #expect(throws: Offline.self) {
            try db.write { tx in
                _ = try notes.insert("a", author: "ann", tx)
                throw Offline()
            }
        }
        _ = try db.writeOrRollBack { tx -> DBWriteOutcome<Void> in
            _ = try notes.insert("b", author: "ann", tx)
            return .rollBack(())
        }
        // The write commits, but the call failed: it declared nothing.
        notes.insert.fails(with: Offline())
        try db.write { tx in _ = try? notes.insert("c", author: "ann", tx) }

        #expect(heard == [])
        #expect(db.statistics == MockDB.Statistics(writes: 3, commits: 1, rollbacks: 2))
        #expect(notes.insert.callCount == 3)
    }

    @Test func aCallWithoutAWriteTransactionDeclaresNothingAndFailsTheTest() throws {
        let observation = observe(["note"])
        defer { observation.cancel() }
        notes.latest.returns("hello")
        notes.latest.declaresChange(table: "note")
        notes.cachedCount.returns(3)
        notes.cachedCount.declaresChange(table: "note")

        var answers: [String?] = []
        var cached = 0
        withKnownIssue {
            do {
                answers.append(try db.read { tx in try notes.latest(tx) })
            } catch {
                answers.append("\(error)")
            }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains(#"NoteFinderMock.latest(_:) declares that it changes "note""#)
                    && $0.rawValue.contains("received a read transaction")
            } && issue.sourceLocation?.fileName == "MockMethodTransactionTests.swift"
        }
        withKnownIssue {
            cached = notes.cachedCount(for: "ann")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("received no transaction") }
        }
        // Called with the write transaction it receives inside a write, a
        // read method does declare.
        try db.write { tx in answers.append(try notes.latest(tx)) }

        #expect(answers == ["hello", "hello"], "the stub's answer comes back")
        #expect(cached == 3)
        #expect(heard == [DBChanges(tables: ["note"])])
    }

    @Test func aStubWithTheTransactionWritesInIt() throws {
        let drafts = KeyValueStore(collection: "drafts")
        let observation = db.observeCommits(keyValueCollections: ["drafts"], queue: queue) { [received] changes in
            received.withValue { $0.append(changes) }
        }
        defer { observation.cancel() }
        notes.insert.stubWithTransaction { arguments, tx in
            guard let write = tx as? DBWriteTransaction else { throw Offline() }
            try drafts.removeValue(forKey: arguments.author, transaction: write)
            return arguments.text.count
        }
        db.seedKeyValues(["ann": "unsent", "bob": "unsent"], in: "drafts")

        let id = try db.write { tx in try notes.insert("hello", author: "ann", tx) }
        #expect(throws: Offline.self) {
            try db.write { tx in
                _ = try notes.insert("hi", author: "bob", tx)
                throw Offline()
            }
        }

        #expect(id == 5)
        #expect(db.keyValues(in: "drafts") == ["bob": "unsent"])
        #expect(heard == [DBChanges(keyValueCollections: ["drafts"])])
        #expect(notes.insert.isStubbed)
    }

    @Test func aStubWithTheTransactionSeesTheCallersTransactionOrNone() throws {
        let seen = Locked<[String]>([])
        notes.latest.stubWithTransaction { _, tx in
            let kind = tx.map { $0 is DBWriteTransaction ? "write" : "read" } ?? "none"
            seen.withValue { $0.append(kind) }
            return nil
        }
        notes.cachedCount.stubWithTransaction { _, tx in
            seen.withValue { $0.append(tx == nil ? "none" : "some") }
            return 0
        }

        _ = try db.read { tx in try notes.latest(tx) }
        _ = try db.write { tx in try notes.latest(tx) }
        _ = notes.cachedCount(for: "ann")

        #expect(seen.value == ["read", "write", "none"])
    }

    @Test func resetForgetsTheDeclaredChanges() throws {
        let observation = observe(["note"])
        defer { observation.cancel() }
        notes.insert.declaresChange(table: "note")
        notes.insert.reset()
        notes.insert.returns(1)

        try db.write { tx in _ = try notes.insert("a", author: "ann", tx) }

        #expect(heard == [])
    }

    @Test func anUnstubbedCallDeclaresNothing() throws {
        let observation = observe(["note"])
        defer { observation.cancel() }
        notes.insert.declaresChange(table: "note")

        withKnownIssue {
            _ = try? db.write { tx in _ = try? notes.insert("a", author: "ann", tx) }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("NoteFinderMock.insert(_:author:_:) was called") }
        }

        #expect(heard == [])
        #expect(db.commitCount == 1)
    }
}
