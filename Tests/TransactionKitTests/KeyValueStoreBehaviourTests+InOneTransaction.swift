import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// Several changes of the same keys in one write transaction, read back
/// inside it and after it: the write sees its own changes over the
/// committed values, the commit keeps exactly what the write left, a
/// rollback keeps nothing, and a read opened before the commit keeps its
/// snapshot. MockDB stages a write's changes and applies them in place at
/// commit; these cases are the ones that staging could get wrong.
extension KeyValueStoreBehaviourTests {
    /// Every committed value of `store`, by key, in one read transaction.
    static func committedValues(of store: KeyValueStore, in db: any DB) throws -> [String: KeyValueStore.Value] {
        try db.read { tx in try values(of: store, tx) }
    }

    /// Commits `count` keys `k0`, `k1`, … (each worth its index) in the
    /// fixture's store, and `otherValue` for key `a` in the collection
    /// `other`.
    static func commitNumberedKeys(_ count: Int, other otherValue: KeyValueStore.Value, in fixture: Fixture) throws {
        try fixture.db.write { tx throws in
            for index in 0..<count {
                try fixture.store.setInt(index, key: "k\(index)", transaction: tx)
            }
            try KeyValueStore(collection: "other").setValue(otherValue, key: "a", transaction: tx)
        }
    }

    /// Every value of `store` that `tx` sees, by key.
    static func values(of store: KeyValueStore, _ tx: DBReadTransaction) throws -> [String: KeyValueStore.Value] {
        var values: [String: KeyValueStore.Value] = [:]
        for key in try store.allKeys(transaction: tx) {
            values[key] = try store.getValue(key, transaction: tx)
        }
        return values
    }

    @Test(arguments: Backend.allCases)
    func removingThenSettingAKeyInOneWriteKeepsTheNewValue(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        try fixture.db.write { tx throws in
            try store.setInt(1, key: "a", transaction: tx)
            try store.setInt(1, key: "b", transaction: tx)
        }
        try fixture.db.write { tx throws in
            try store.removeValue(forKey: "a", transaction: tx)
            #expect(try store.hasValue("a", transaction: tx) == false)
            #expect(try store.count(transaction: tx) == 1)
            try store.setInt(2, key: "a", transaction: tx)
            #expect(try store.getInt("a", transaction: tx) == 2)
            #expect(try store.allKeys(transaction: tx) == ["a", "b"])
            #expect(try store.count(transaction: tx) == 2)
        }
        try fixture.db.read { tx throws in
            #expect(try store.getInt("a", transaction: tx) == 2)
            #expect(try store.allKeys(transaction: tx) == ["a", "b"])
            #expect(try store.count(transaction: tx) == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func removeAllThenSetInOneWriteSeesOnlyTheNewKeys(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        let other = KeyValueStore(collection: "other")
        try fixture.db.write { tx throws in
            for key in ["a", "b", "c"] {
                try store.setInt(1, key: key, transaction: tx)
            }
            try other.setInt(1, key: "a", transaction: tx)
        }
        try fixture.db.write { tx throws in
            try store.setInt(9, key: "z", transaction: tx)
            try store.removeAll(transaction: tx)
            #expect(try store.allKeys(transaction: tx) == [])
            #expect(try store.count(transaction: tx) == 0)
            try store.setInt(2, key: "b", transaction: tx)
            try store.setInt(2, key: "d", transaction: tx)
            #expect(try store.allKeys(transaction: tx) == ["b", "d"])
            #expect(try store.count(transaction: tx) == 2)
            #expect(try store.getInt("a", transaction: tx) == nil)
            #expect(try store.getInt("b", transaction: tx) == 2)
            #expect(try store.getInt("z", transaction: tx) == nil)
            // Removing a key the transaction set after removeAll, and one
            // that removeAll already removed.
            try store.removeValue(forKey: "d", transaction: tx)
            try store.removeValue(forKey: "c", transaction: tx)
            #expect(try store.allKeys(transaction: tx) == ["b"])
            #expect(try store.count(transaction: tx) == 1)
            #expect(try other.count(transaction: tx) == 1)
        }
        #expect(try Self.committedValues(of: store, in: fixture.db) == ["b": .integer(2)])
        #expect(try Self.committedValues(of: other, in: fixture.db) == ["a": .integer(1)])
    }

    @Test(arguments: Backend.allCases)
    func settingThenRemovingInOneWriteLeavesNothingAfterTheCommit(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        let fresh = KeyValueStore(collection: "fresh")
        try fixture.db.write { tx in try store.setInt(1, key: "committed", transaction: tx) }
        try fixture.db.write { tx throws in
            // A new key, in a collection that had none.
            try fresh.setInt(1, key: "new", transaction: tx)
            try fresh.removeValue(forKey: "new", transaction: tx)
            // A committed key, changed then removed.
            try store.setInt(2, key: "committed", transaction: tx)
            try store.removeValue(forKey: "committed", transaction: tx)
            // A new key beside it, set twice then removed.
            try store.setInt(3, key: "other", transaction: tx)
            try store.setInt(4, key: "other", transaction: tx)
            try store.removeValue(forKey: "other", transaction: tx)
            #expect(try fresh.count(transaction: tx) == 0)
            #expect(try store.allKeys(transaction: tx) == [])
        }
        try fixture.db.read { tx throws in
            #expect(try fresh.allKeys(transaction: tx) == [])
            #expect(try fresh.count(transaction: tx) == 0)
            #expect(try store.allKeys(transaction: tx) == [])
            #expect(try store.count(transaction: tx) == 0)
            #expect(try store.hasValue("committed", transaction: tx) == false)
        }
    }

    /// A read whose snapshot was taken before a write commits keeps it,
    /// whatever the write did: set, removed, removed all. The committed
    /// collection is large, as where MockDB applies a commit in place.
    @Test(arguments: Backend.allCases)
    func aReadOpenedBeforeACommitKeepsItsSnapshotOfALargeCollection(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        let other = KeyValueStore(collection: "other")
        try Self.commitNumberedKeys(1_000, other: .integer(1), in: fixture)
        let before = try Self.committedValues(of: store, in: fixture.db)
        let writeCommitted = AtomicFlag(false)
        let readIsOpen = AtomicFlag(false)
        let writer = Thread {
            TransactionBehaviourTests.waitUntil { readIsOpen.load(ordering: .acquiring) }
            try? fixture.db.write { tx throws in
                try store.setInt(-1, key: "k0", transaction: tx)
                try store.setInt(-1, key: "new", transaction: tx)
                try store.removeValue(forKey: "k1", transaction: tx)
                try other.removeAll(transaction: tx)
            }
            writeCommitted.store(true, ordering: .releasing)
        }
        writer.start()
        let (seen, otherCount, committedDuringRead) = try fixture.db.read { tx throws in
            #expect(try store.getInt("k0", transaction: tx) == 0)
            readIsOpen.store(true, ordering: .releasing)
            let committed = { writeCommitted.load(ordering: .acquiring) }
            if backend.readsRunBesideAWrite {
                TransactionBehaviourTests.waitUntil(committed)
            } else {
                // The write waits for this read: it must not commit meanwhile.
                TransactionBehaviourTests.poll(for: 0.2, committed)
            }
            let committedDuringRead = writeCommitted.load(ordering: .acquiring)
            return (try Self.values(of: store, tx), try other.count(transaction: tx), committedDuringRead)
        }
        #expect(seen == before, "the read kept its snapshot")
        #expect(otherCount == 1)
        #expect(committedDuringRead == backend.readsRunBesideAWrite)
        TransactionBehaviourTests.waitUntil { writeCommitted.load(ordering: .acquiring) }
        var expected = before
        expected["k0"] = .integer(-1)
        expected["new"] = .integer(-1)
        expected["k1"] = nil
        #expect(try Self.committedValues(of: store, in: fixture.db) == expected)
        #expect(try Self.committedValues(of: other, in: fixture.db) == [:])
    }

    /// Many changes, then a rollback (by throwing, or on purpose): the
    /// committed values are exactly those before, and the next write starts
    /// from them.
    @Test(arguments: Backend.allCases)
    func aRollbackAfterManyChangesLeavesTheCommittedValuesIdentical(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        let other = KeyValueStore(collection: "other")
        try Self.commitNumberedKeys(200, other: .text("x"), in: fixture)
        let before = try Self.committedValues(of: store, in: fixture.db)
        func changeEverything(_ tx: DBWriteTransaction) throws {
            for index in 0..<500 {
                try store.setInt(-index, key: "k\(index)", transaction: tx)
            }
            for index in stride(from: 0, to: 500, by: 3) {
                try store.removeValue(forKey: "k\(index)", transaction: tx)
            }
            try other.removeAll(transaction: tx)
            try other.setString("y", key: "b", transaction: tx)
            #expect(try store.count(transaction: tx) == 500 - 167)
        }
        #expect(throws: TestError(id: 13)) {
            try fixture.db.write { tx throws in
                try changeEverything(tx)
                throw TestError(id: 13)
            }
        }
        #expect(try Self.committedValues(of: store, in: fixture.db) == before)
        #expect(try Self.committedValues(of: other, in: fixture.db) == ["a": .text("x")])
        let outcome = try fixture.db.writeOrRollBack { tx -> DBWriteOutcome<Int> in
            try changeEverything(tx)
            return .rollBack(try store.count(transaction: tx))
        }
        #expect(outcome == 333)
        #expect(try Self.committedValues(of: store, in: fixture.db) == before)
        #expect(try Self.committedValues(of: other, in: fixture.db) == ["a": .text("x")])
        // The next write starts from the committed values, not from the
        // rolled-back ones.
        try fixture.db.write { tx throws in
            #expect(try store.count(transaction: tx) == 200)
            #expect(try other.allKeys(transaction: tx) == ["a"])
            try store.setInt(70, key: "k7", transaction: tx)
        }
        var expected = before
        expected["k7"] = .integer(70)
        #expect(try Self.committedValues(of: store, in: fixture.db) == expected)
    }
}
