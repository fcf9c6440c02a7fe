import GeneratorFixture
import GRDB
import Testing
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// The generated code at work: the wrappers forward to the legacy types
/// on a real SQLiteDB, and the mocks answer on MockDB.
@Suite("Generated shims, wrappers and mocks")
struct ItemManagerShimTests {
    static func database() throws -> SQLiteDB {
        try SQLiteDB.inMemory(migrator: FixtureSchema.migrator)
    }

    @Test func theWrappersReachTheLegacyTypesOnSQLiteDB() throws {
        let db = try Self.database()
        let store: any ItemManager.Shims.ItemStore = ItemManager.Wrappers.ItemStore()
        let counters: any ItemManager.Shims.Counters = ItemManager.Wrappers.Counters()
        let item = try db.write { tx in
            var name = "  box "
            try store.normalize(&name, tx)
            #expect(name == "box")
            #expect(try counters.next("items", tx) == 1)
            #expect(try counters.next("items", tx) == 2)
            return try store.insert(name: name, tx)
        }
        #expect(try db.read { tx in try store.item(id: item.id, tx) } == item)
        #expect(try db.read { tx in try store.item(named: "box", tx) } == item)
        #expect(try db.read { tx in try store.count(item.id, tx) + store.count("box", tx) } == 2)
        #expect(try db.read { tx in try store.names(tx) } == ["box"])
        #expect(try db.read { tx in try store.names(limit: 1, offset: 1, tx) } == [])
        #expect(try db.read { tx in try store.decode(Item.self, json: #"{"id":7,"name":"x"}"#, tx) } == Item(id: 7, name: "x"))
        #expect(try db.read { tx in try store.itemAndCount(id: item.id, tx)?.1 } == 1)
        #expect(try store.validate("ok") == "ok")
        #expect(throws: StoreError.emptyName) { try store.validate("") }
        #expect(store.transform(["a"]) { $0 + "!" } == ["a!"])
        store.limit = 3
        #expect(store.limit == 3)
        counters.prefix = "p"
        #expect(counters.prefix == "p")
    }

    @Test func theMocksAnswerOnMockDB() throws {
        let db = MockDB()
        let store = ItemManager.Mocks.ItemStore()
        store.insert.stub { name in Item(id: 1, name: name) }
        store.names.returns(["a", "b"])
        store.decode.returns(Item(id: 2, name: "d"))
        store.getLimit.returns(5)
        store.validate.fails(with: StoreError.emptyName)

        let item = try db.write { tx in try store.insert(name: "a", tx) }
        let names = try db.read { tx in try store.names(limit: 3, tx) }
        let decoded = try db.read { tx in try store.decode(Item.self, json: "{}", tx) }

        #expect(item == Item(id: 1, name: "a"))
        #expect(names == ["a", "b"])
        // The default overload passed the legacy default for `offset`.
        #expect(store.names.calls.map(\.offset) == [0])
        #expect(store.names.calls.map(\.limit) == [3])
        #expect(decoded == Item(id: 2, name: "d"))
        #expect(store.decode.calls.map(\.type) == ["Item"])
        #expect(store.limit == 5)
        #expect(throws: StoreError.emptyName) { try store.validate("") }
    }

    @Test func anUnstubbedMockMemberFailsTheTestAndThrows() throws {
        let db = MockDB()
        let counters = ItemManager.Mocks.Counters()
        try withKnownIssue {
            _ = try db.write { tx in try counters.next("k", tx) }
        } matching: { issue in
            issue.description.contains("ItemManager_CountersMock.next(_:_:) was called") || issue.error is UnimplementedError
        }
        #expect(counters.next.calls == ["k"])
    }
}
