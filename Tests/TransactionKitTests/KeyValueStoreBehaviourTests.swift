import Foundation
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTestSupport
import TransactionKitTesting

/// `KeyValueStore`, written once and run against every backend: MockDB's
/// in-memory store must behave as the SQLite table does.
@Suite("KeyValueStore behaviour")
struct KeyValueStoreBehaviourTests {
    struct Cursor: Codable, Equatable {
        var conversation: Int
        var message: String
        var seen: [Int]
    }

    // MARK: Typed values

    @Test(arguments: Backend.allCases)
    func everyTypeRoundTripsInsideTheWriteAndAfterTheCommit(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "types")
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let bytes = Data([0, 1, 2, 255])
        let cursor = Cursor(conversation: 7, message: "é🙂", seen: [1, 2])

        func check(_ tx: DBReadTransaction) throws {
            #expect(try store.getString("string", transaction: tx) == "dark")
            #expect(try store.getBool("true", transaction: tx) == true)
            #expect(try store.getBool("false", transaction: tx) == false)
            #expect(try store.getInt("int", transaction: tx) == -42)
            #expect(try store.getInt("max", transaction: tx) == Int.max)
            #expect(try store.getDouble("double", transaction: tx) == 0.1)
            #expect(try store.getDate("date", transaction: tx) == date)
            #expect(try store.getData("data", transaction: tx) == bytes)
            #expect(try store.getData("empty data", transaction: tx) == Data())
            #expect(try store.getCodable("cursor", as: Cursor.self, transaction: tx) == cursor)
            #expect(try store.getValue("value", transaction: tx) == .real(2.5))
        }
        try fixture.db.write { tx throws in
            try store.setString("dark", key: "string", transaction: tx)
            try store.setBool(true, key: "true", transaction: tx)
            try store.setBool(false, key: "false", transaction: tx)
            try store.setInt(-42, key: "int", transaction: tx)
            try store.setInt(Int.max, key: "max", transaction: tx)
            try store.setDouble(0.1, key: "double", transaction: tx)
            try store.setDate(date, key: "date", transaction: tx)
            try store.setData(bytes, key: "data", transaction: tx)
            try store.setData(Data(), key: "empty data", transaction: tx)
            try store.setCodable(cursor, key: "cursor", transaction: tx)
            try store.setValue(.real(2.5), key: "value", transaction: tx)
            try check(tx)
        }
        try fixture.db.read { tx in try check(tx) }
    }

    /// The stored form is the same everywhere: storage classes and the JSON
    /// text of a `Codable` value (sorted keys).
    @Test(arguments: Backend.allCases)
    func valuesAreStoredInTheSameFormOnEveryBackend(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "forms")
        try fixture.db.write { tx throws in
            try store.setBool(true, key: "bool", transaction: tx)
            try store.setDate(Date(timeIntervalSince1970: 86_400), key: "date", transaction: tx)
            try store.setCodable(Cursor(conversation: 1, message: "m", seen: []), key: "json", transaction: tx)
        }
        try fixture.db.read { tx throws in
            #expect(try store.getValue("bool", transaction: tx) == .integer(1))
            #expect(try store.getValue("date", transaction: tx) == .real(86_400))
            #expect(try store.getValue("json", transaction: tx) == .text(#"{"conversation":1,"message":"m","seen":[]}"#))
            // Widening reads: an integer reads as a double and as a date.
            #expect(try store.getDouble("bool", transaction: tx) == 1)
            #expect(try store.getDate("bool", transaction: tx) == Date(timeIntervalSince1970: 1))
        }
    }

    @Test(arguments: Backend.allCases)
    func settingNilOrRemovingDeletesOnlyThatKey(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "c")
        try fixture.db.write { tx throws in
            for key in ["a", "b", "c", "d"] {
                try store.setString(key, key: key, transaction: tx)
            }
        }
        try fixture.db.write { tx throws in
            try store.setString(nil, key: "a", transaction: tx)
            try store.setData(nil, key: "b", transaction: tx)
            try store.removeValue(forKey: "c", transaction: tx)
            try store.removeValue(forKey: "missing", transaction: tx)
            #expect(try store.hasValue("a", transaction: tx) == false)
            #expect(try store.allKeys(transaction: tx) == ["d"])
        }
        try fixture.db.read { tx throws in
            #expect(try store.allKeys(transaction: tx) == ["d"])
            #expect(try store.count(transaction: tx) == 1)
            #expect(try store.hasValue("d", transaction: tx))
            #expect(try store.getString("a", transaction: tx) == nil)
            #expect(try store.getBool("a", defaultValue: true, transaction: tx) == true)
            #expect(try store.getInt("a", defaultValue: 9, transaction: tx) == 9)
        }
    }

    // MARK: Errors

    @Test(arguments: Backend.allCases)
    func aTypeMismatchOnReadThrowsATypedErrorAndTheTransactionGoesOn(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "settings")
        try fixture.db.write { tx throws in
            try store.setString("large", key: "fontSize", transaction: tx)
            try store.setDouble(1.5, key: "ratio", transaction: tx)
            try store.setString("not json", key: "cursor", transaction: tx)
            try store.setInt(3, key: "count", transaction: tx)
        }
        let committed = try fixture.db.write { tx throws in
            let intError = #expect(throws: KeyValueStoreError.self) { try store.getInt("fontSize", transaction: tx) }
            #expect(intError?.kind == .typeMismatch)
            #expect(intError?.collection == "settings")
            #expect(intError?.key == "fontSize")
            #expect(intError?.description == #"KeyValueStore "settings"/"fontSize": expected integer, found text("large")"#)
            // A real is not rounded into an integer.
            #expect(throws: KeyValueStoreError.self) { try store.getInt("ratio", transaction: tx) }
            #expect(throws: KeyValueStoreError.self) { try store.getBool("fontSize", transaction: tx) }
            #expect(throws: KeyValueStoreError.self) { try store.getData("fontSize", transaction: tx) }
            #expect(throws: KeyValueStoreError.self) { try store.getString("count", transaction: tx) }
            #expect(throws: KeyValueStoreError.self) { try store.getDate("fontSize", transaction: tx) }
            let decoding = #expect(throws: KeyValueStoreError.self) {
                try store.getCodable("cursor", as: Cursor.self, transaction: tx)
            }
            #expect(decoding?.kind == .decodingFailed)
            let notText = #expect(throws: KeyValueStoreError.self) {
                try store.getCodable("count", as: Cursor.self, transaction: tx)
            }
            #expect(notText?.kind == .typeMismatch)
            let nan = #expect(throws: KeyValueStoreError.self) {
                try store.setDouble(.nan, key: "nan", transaction: tx)
            }
            #expect(nan?.kind == .invalidValue)
            // The transaction is still usable after the caught errors.
            try store.setInt(4, key: "count", transaction: tx)
            return "committed"
        }
        #expect(committed == "committed")
        try fixture.db.read { tx throws in
            #expect(try store.getInt("count", transaction: tx) == 4)
            #expect(try store.hasValue("nan", transaction: tx) == false)
        }
    }

    /// SQLite's text ends at U+0000, so the store refuses it in keys,
    /// collections and text values, on every backend, before anything is
    /// read or written.
    @Test(arguments: Backend.allCases)
    func aNULCharacterInAKeyCollectionOrTextIsATypedErrorEverywhere(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "c")
        let badCollection = KeyValueStore(collection: "c\u{0}d")
        try fixture.db.write { tx throws in
            try store.setString("plain", key: "a", transaction: tx)
            let key = #expect(throws: KeyValueStoreError.self) { try store.setString("x", key: "a\u{0}b", transaction: tx) }
            #expect(key?.kind == .invalidKey)
            let read = #expect(throws: KeyValueStoreError.self) { try store.getString("a\u{0}b", transaction: tx) }
            #expect(read?.kind == .invalidKey)
            let collection = #expect(throws: KeyValueStoreError.self) { try badCollection.count(transaction: tx) }
            #expect(collection?.kind == .invalidKey)
            let value = #expect(throws: KeyValueStoreError.self) { try store.setString("x\u{0}y", key: "b", transaction: tx) }
            #expect(value?.kind == .invalidValue)
            let raw = #expect(throws: KeyValueStoreError.self) { try store.setValue(.text("\u{0}"), key: "b", transaction: tx) }
            #expect(raw?.kind == .invalidValue)
        }
        try fixture.db.read { tx throws in
            #expect(try store.allKeys(transaction: tx) == ["a"])
            #expect(try store.getString("a", transaction: tx) == "plain")
        }
    }

    // MARK: Transactions

    @Test(arguments: Backend.allCases)
    func writesOfAThrowingWriteVanishAndEarlierValuesStay(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "c")
        let other = KeyValueStore(collection: "other")
        try fixture.db.write { tx throws in
            try store.setString("kept", key: "a", transaction: tx)
            try other.setInt(1, key: "x", transaction: tx)
        }
        #expect(throws: TestError(id: 5)) {
            try fixture.db.write { tx throws in
                try store.setString("changed", key: "a", transaction: tx)
                try store.setString("new", key: "b", transaction: tx)
                try other.removeAll(transaction: tx)
                #expect(try store.count(transaction: tx) == 2)
                #expect(try other.count(transaction: tx) == 0)
                throw TestError(id: 5)
            }
        }
        try fixture.db.read { tx throws in
            #expect(try store.getString("a", transaction: tx) == "kept")
            #expect(try store.hasValue("b", transaction: tx) == false)
            #expect(try other.getInt("x", transaction: tx) == 1)
        }
    }

    /// A read transaction keeps its snapshot while another thread commits a
    /// write. Where reads run beside a write (file, MockDB) the write
    /// commits while the read is open; in memory it waits for the read.
    @Test(arguments: Backend.allCases)
    func aReadSeesOneSnapshotWhileAnotherThreadWrites(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = fixture.store
        try fixture.db.write { tx throws in
            try store.setInt(1, key: "a", transaction: tx)
            try store.setInt(1, key: "b", transaction: tx)
        }
        let writeCommitted = AtomicFlag(false)
        let readIsOpen = AtomicFlag(false)
        let writer = Thread {
            TransactionBehaviourTests.waitUntil { readIsOpen.load(ordering: .acquiring) }
            try? fixture.db.write { tx throws in
                try store.setInt(2, key: "a", transaction: tx)
                try store.setInt(2, key: "b", transaction: tx)
                try store.setInt(2, key: "c", transaction: tx)
            }
            writeCommitted.store(true, ordering: .releasing)
        }
        writer.start()
        let (first, second, committedDuringRead) = try fixture.db.read { tx throws in
            let first = [try store.getInt("a", transaction: tx)]
            readIsOpen.store(true, ordering: .releasing)
            let committed = { writeCommitted.load(ordering: .acquiring) }
            if backend.readsRunBesideAWrite {
                TransactionBehaviourTests.waitUntil(committed)
            } else {
                // The write waits for this read: it must not commit meanwhile.
                TransactionBehaviourTests.poll(for: 0.2, committed)
            }
            let committedDuringRead = writeCommitted.load(ordering: .acquiring)
            let second = [
                try store.getInt("a", transaction: tx), try store.getInt("b", transaction: tx),
                try store.getInt("c", transaction: tx), try store.count(transaction: tx),
            ]
            return (first, second, committedDuringRead)
        }
        #expect(first == [1])
        #expect(second == [1, 1, nil, 2], "the read kept its snapshot")
        #expect(committedDuringRead == backend.readsRunBesideAWrite)
        TransactionBehaviourTests.waitUntil { writeCommitted.load(ordering: .acquiring) }
        try fixture.db.read { tx throws in
            #expect(try store.allKeys(transaction: tx) == ["a", "b", "c"])
            #expect(try store.getInt("a", transaction: tx) == 2)
        }
    }

    /// Writers on threads and in tasks increment counters through the store:
    /// serialized writes lose no increment, on every backend.
    @Test(arguments: Backend.allCases)
    func concurrentWritersThroughTheStoreLoseNoIncrement(_ backend: Backend) async throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "counters")
        let writers = 4
        let increments = 25
        let threadsDone = DispatchGroup()
        for _ in 0..<writers {
            threadsDone.enter()
            Thread.detachNewThread {
                defer { threadsDone.leave() }
                for _ in 0..<increments {
                    try? fixture.db.write { tx throws in
                        try store.setInt(try store.getInt("total", defaultValue: 0, transaction: tx) + 1, key: "total", transaction: tx)
                        try store.setInt(try store.getInt("threads", defaultValue: 0, transaction: tx) + 1, key: "threads", transaction: tx)
                    }
                }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<writers {
                group.addTask {
                    for _ in 0..<increments {
                        try await fixture.db.write { tx throws in
                            try store.setInt(try store.getInt("total", defaultValue: 0, transaction: tx) + 1, key: "total", transaction: tx)
                        }
                        // A read beside the writers sees a committed total.
                        let seen = try await fixture.db.read { tx in try store.getInt("total", transaction: tx) }
                        #expect((seen ?? 0) >= 1)
                    }
                }
            }
            try await group.waitForAll()
        }
        await withCheckedContinuation { continuation in
            threadsDone.notify(queue: .global()) { continuation.resume() }
        }
        try await fixture.db.read { tx throws in
            #expect(try store.getInt("total", transaction: tx) == 2 * writers * increments)
            #expect(try store.getInt("threads", transaction: tx) == writers * increments)
        }
    }

    // MARK: Values and keys

    @Test(arguments: Backend.allCases)
    func aOneMegabyteValueRoundTrips(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let store = KeyValueStore(collection: "large")
        let blob = Data((0..<1_048_576).map { (index: Int) in UInt8(truncatingIfNeeded: index &* 31 &+ 7) })
        let text = String(repeating: "ab€🙂", count: 1_048_576 / 10)
        try fixture.db.write { tx throws in
            try store.setData(blob, key: "blob", transaction: tx)
            try store.setString(text, key: "text", transaction: tx)
        }
        try fixture.db.read { tx throws in
            #expect(try store.getData("blob", transaction: tx) == blob)
            #expect(try store.getString("text", transaction: tx) == text)
        }
    }

    /// Keys and collections are compared byte for byte, as SQLite does: the
    /// empty string is a key, and precomposed and decomposed "é" are two.
    @Test(arguments: Backend.allCases)
    func emptyAndUnicodeKeysAreDistinctByteForByte(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed, "Swift calls them equal; the store must not")
        let store = KeyValueStore(collection: "")
        let emoji = KeyValueStore(collection: "🙂")
        try fixture.db.write { tx throws in
            try store.setInt(0, key: "", transaction: tx)
            try store.setInt(1, key: precomposed, transaction: tx)
            try store.setInt(2, key: decomposed, transaction: tx)
            try store.setInt(3, key: "日本", transaction: tx)
            try store.setInt(4, key: "Z", transaction: tx)
            try emoji.setInt(5, key: "🙂", transaction: tx)
        }
        try fixture.db.read { tx throws in
            #expect(try store.getInt("", transaction: tx) == 0)
            #expect(try store.getInt(precomposed, transaction: tx) == 1)
            #expect(try store.getInt(decomposed, transaction: tx) == 2)
            #expect(try store.getInt("日本", transaction: tx) == 3)
            #expect(try store.count(transaction: tx) == 5)
            // Sorted by UTF-8 bytes: "", "Z", "cafe\u{301}" (e = 0x65),
            // "caf\u{E9}" (0xC3 0xA9), "日本".
            let keys = try store.allKeys(transaction: tx)
            #expect(keys.map { Array($0.unicodeScalars) } == ["", "Z", decomposed, precomposed, "日本"].map { Array($0.unicodeScalars) })
            #expect(try emoji.getInt("🙂", transaction: tx) == 5)
            #expect(try emoji.count(transaction: tx) == 1)
        }
        try fixture.db.write { tx in try store.removeValue(forKey: decomposed, transaction: tx) }
        try fixture.db.read { tx throws in
            #expect(try store.getInt(precomposed, transaction: tx) == 1)
            #expect(try store.hasValue(decomposed, transaction: tx) == false)
        }
    }

    @Test(arguments: Backend.allCases)
    func manyCollectionsKeepTheirOwnKeys(_ backend: Backend) throws {
        let fixture = try backend.makeFixture()
        let stores = (0..<40).map { KeyValueStore(collection: "collection \($0)") }
        try fixture.db.write { tx throws in
            for (index, store) in stores.enumerated() {
                for key in 0...index % 7 {
                    try store.setInt(index * 100 + key, key: "k\(key)", transaction: tx)
                }
            }
        }
        try fixture.db.write { tx throws in
            try stores[3].removeAll(transaction: tx)
            try stores[4].removeValue(forKey: "k0", transaction: tx)
        }
        try fixture.db.read { tx throws in
            for (index, store) in stores.enumerated() {
                let expectedCount = index == 3 ? 0 : (index % 7 + 1) - (index == 4 ? 1 : 0)
                #expect(try store.count(transaction: tx) == expectedCount, "collection \(index)")
                #expect(try store.allKeys(transaction: tx).count == expectedCount, "collection \(index)")
                if index != 3 {
                    #expect(try store.getInt("k\(index % 7)", transaction: tx) == index * 100 + index % 7)
                }
            }
            #expect(try stores[4].hasValue("k0", transaction: tx) == false)
            #expect(try stores[4].getInt("k1", transaction: tx) == 401)
        }
    }

    @Test(arguments: Backend.allCases)
    func twoStoresOfOneCollectionShareValuesAndTwoDatabasesShareNothing(_ backend: Backend) throws {
        let first = try backend.makeFixture()
        let second = try backend.makeFixture()
        try first.db.write { tx throws in
            try KeyValueStore(collection: "shared").setString("x", key: "k", transaction: tx)
        }
        #expect(try first.db.read { tx in try KeyValueStore(collection: "shared").getString("k", transaction: tx) } == "x")
        #expect(try second.db.read { tx in try KeyValueStore(collection: "shared").count(transaction: tx) } == 0)
    }
}
