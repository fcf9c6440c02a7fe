#if Txkit
import Testing
@testable import TxkitGenerator

/// A shim's mock of members that take an `inout` value or a closure
/// (found by the apps stage: recipes' `save(_: inout Recipe, db:)`, whose
/// caller force-unwraps the id the save sets, and chatstore's
/// `enumerateVisibleThreads(…, block:)`). The pair mock recorded the value
/// and dropped the closure, so no stub could set the id or call the block;
/// it hands both to the stub now, as `txkit mock` does.
@Suite("Shim mocks of inout and closure arguments")
struct ShimMockClosureTests {
    static func mock() throws -> String {
        let tree = try InlineTree([
            ("Item.swift", "struct Item: Sendable { var id: Int64? }"),
            ("ItemStore.swift", """
                final class ItemStore {
                    init() {}
                    func save(_ item: inout Item, transaction: LegacyTransaction) { item.id = 1 }
                    func each(transaction: LegacyTransaction, _ body: (Item) -> Void) {}
                    func observe(transaction: LegacyTransaction, onChange: @escaping (Int) -> Void) {}
                    func visit(_ ids: [Int64], transaction: LegacyTransaction, _ body: (Item, inout Bool) -> Void) {}
                }
                """),
            ("Service.swift", """
                final class Service {
                    let store = ItemStore()
                    init() {}
                    func run(_ tx: DBWriteTransaction) throws -> Int64? {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        var item = Item()
                        store.save(&item, transaction: legacy)
                        store.each(transaction: legacy) { _ in }
                        store.observe(transaction: legacy) { _ in }
                        store.visit([1], transaction: legacy) { _, stop in stop = true }
                        return item.id
                    }
                }
                """),
        ])
        let files = try tree.generator.shim(consumer: "Service", legacy: "ItemStore").files
        return try #require(files.first { $0.path.hasSuffix("Service_ItemStoreMock.swift") }).contents
    }

    @Test func anInoutValueIsRecordedAndBoxedForTheStub() throws {
        let mock = try Self.mock()
        #expect(mock.contains("let save = MockMethodWithClosures<Item, MockInout<Item>, Void>()"))
        #expect(mock.contains("""
                    let itemBox = MockInout(item)
                    defer { item = itemBox.value }
                    return try save.call(item, closures: itemBox, tx, in: self)
            """))
    }

    @Test func aNonEscapingClosureReachesTheStubWithoutActuallyEscaping() throws {
        let mock = try Self.mock()
        #expect(mock.contains("let each = MockMethodWithClosures<Void, (Item) -> Void, Void>()"))
        #expect(mock.contains("""
                    return try withoutActuallyEscaping(body) { body in
                        return try each.call((), closures: body, tx, in: self)
                    }
            """))
        // The recorded arguments stay apart from the closure.
        #expect(mock.contains("let visit = MockMethodWithClosures<[Int64], (Item, inout Bool) -> Void, Void>()"))
    }

    @Test func anEscapingClosureIsPassedAsIs() throws {
        let mock = try Self.mock()
        #expect(mock.contains("let observe = MockMethodWithClosures<Void, (Int) -> Void, Void>()"))
        #expect(mock.contains("    try observe.call((), closures: onChange, tx, in: self)\n"))
    }
}
#endif
