import Dispatch
import Foundation
import Testing
import TransactionKit
import TransactionKitTestSupport
import TransactionKitTesting

/// MockDB's in-memory key-value storage: seeded in one call, inspected
/// afterwards, owned by one instance, committed only with its transaction.
@Suite("MockDB key-value storage")
struct MockDBKeyValueTests {
    let settings = KeyValueStore(collection: "settings")

    @Test func seededValuesAreReadableAndInspectable() throws {
        let db = MockDB(keyValues: ["settings": ["theme": "dark", "fontSize": 14, "badges": true, "ratio": 1.5]])
        try db.read { tx throws in
            #expect(try settings.getString("theme", transaction: tx) == "dark")
            #expect(try settings.getInt("fontSize", transaction: tx) == 14)
            #expect(try settings.getBool("badges", transaction: tx) == true)
            #expect(try settings.getDouble("ratio", transaction: tx) == 1.5)
        }
        #expect(db.keyValues(in: "settings") == ["theme": .text("dark"), "fontSize": .integer(14), "badges": .integer(1), "ratio": .real(1.5)])
        #expect(db.keyValueCollections == ["settings"])
        #expect(db.statistics == MockDB.Statistics(reads: 1))
    }

    @Test func seedingMergesIntoACollectionAndCountsNoTransaction() throws {
        let db = MockDB()
        db.seedKeyValues(["a": 1, "b": 2], in: "numbers")
        db.seedKeyValues(["b": 20, "c": 30], in: "numbers")
        db.seedKeyValues(["x": "y"], in: "letters")
        #expect(db.keyValues(in: "numbers") == ["a": 1, "b": 20, "c": 30])
        #expect(db.keyValueCollections == ["letters", "numbers"])
        #expect(db.statistics == MockDB.Statistics())
        #expect(try db.read { tx in try KeyValueStore(collection: "numbers").allKeys(transaction: tx) } == ["a", "b", "c"])
    }

    @Test func inspectionShowsCommittedValuesOnlyNeverThoseOfARollback() throws {
        let db = MockDB(keyValues: ["settings": ["theme": "light"]])
        try db.write { tx throws in
            try settings.setString("dark", key: "theme", transaction: tx)
            #expect(db.keyValues(in: "settings") == ["theme": "light"], "not visible before the commit")
        }
        #expect(db.keyValues(in: "settings") == ["theme": "dark"])
        _ = try? db.write { tx throws in
            try settings.setString("blue", key: "theme", transaction: tx)
            try settings.setBool(true, key: "muted", transaction: tx)
            throw CancellationError()
        }
        #expect(db.keyValues(in: "settings") == ["theme": "dark"])
        #expect(db.rollbackCount == 1)
    }

    @Test func anInjectedCommitFailureKeepsNothing() throws {
        let db = MockDB()
        db.failNextCommit(with: DBError(kind: .diskFull, operation: .commit, path: "MockDB", message: "injected"))
        #expect(throws: DBError.self) {
            try db.write { tx in try settings.setString("dark", key: "theme", transaction: tx) }
        }
        #expect(db.keyValues(in: "settings") == [:])
        try db.write { tx in try settings.setString("light", key: "theme", transaction: tx) }
        #expect(db.keyValues(in: "settings") == ["theme": "light"])
    }

    @Test func removingTheLastKeyRemovesTheCollectionFromInspection() throws {
        let db = MockDB(keyValues: ["a": ["k": 1], "b": ["k": 2]])
        try db.write { tx in try KeyValueStore(collection: "a").removeValue(forKey: "k", transaction: tx) }
        try db.write { tx in try KeyValueStore(collection: "b").removeAll(transaction: tx) }
        #expect(db.keyValueCollections == [])
    }

    @Test func twoMockDBsShareNothing() throws {
        let first = MockDB(keyValues: ["settings": ["theme": "dark"]])
        let second = MockDB()
        try second.write { tx in try settings.setString("light", key: "theme", transaction: tx) }
        #expect(first.keyValues(in: "settings") == ["theme": "dark"])
        #expect(second.keyValues(in: "settings") == ["theme": "light"])
    }

    @Test func aReadOnlyMockDBReadsItsSeedAndRefusesWrites() throws {
        let db = MockDB(isReadOnly: true, keyValues: ["settings": ["theme": "dark"]])
        #expect(try db.read { tx in try settings.getString("theme", transaction: tx) } == "dark")
        #expect(throws: DBError.self) {
            try db.write { tx in try settings.setString("light", key: "theme", transaction: tx) }
        }
        #expect(db.keyValues(in: "settings") == ["theme": "dark"])
    }

    /// Seeding waits for a running write, as a write would: it never slips
    /// between a transaction's writes.
    @Test func seedingWaitsForARunningWrite() throws {
        let db = MockDB()
        let writeStarted = DispatchSemaphore(value: 0)
        let seeded = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            try? db.write { tx throws in
                try settings.setInt(1, key: "n", transaction: tx)
                writeStarted.signal()
                // The seed must not complete while this write runs.
                #expect(seeded.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
            }
        }
        writeStarted.wait()
        db.seedKeyValues(["seeded": true], in: "settings")
        seeded.signal()
        done.wait()
        #expect(db.keyValues(in: "settings") == ["n": 1, "seeded": true])
    }

    @Test func valueLiteralsAndDescriptions() {
        let values: [KeyValueStore.Value] = ["text", 3, 1.5, true, false, .blob(Data([1, 2]))]
        #expect(values == [.text("text"), .integer(3), .real(1.5), .integer(1), .integer(0), .blob(Data([1, 2]))])
        #expect(values.map(\.description) == [#"text("text")"#, "integer(3)", "real(1.5)", "integer(1)", "integer(0)", "blob(2 bytes)"])
        #expect(values.map(\.storageClass) == [.text, .integer, .real, .integer, .integer, .blob])
    }
}
