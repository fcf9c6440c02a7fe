#if Txkit
import Testing
@testable import TxkitGenerator

/// A shim's mock of members that pass or return an app's model class,
/// which is not `Sendable` (Pocket Casts' `Episode`, `Folder`): `--apply`
/// refused every such pair, since a `MockMethod` holds only `Sendable`
/// values. The mock keeps those calls in a `NonSendableMockMethod` now.
@Suite("Shim mocks of non-Sendable values")
struct ShimMockIsolationTests {
    static func tree(legacySendable: Bool) throws -> InlineTree {
        try InlineTree([
            ("Folder.swift", """
                final class Folder {
                    var name = ""
                    init() {}
                }
                """),
            ("FolderStore.swift", """
                final class FolderStore\(legacySendable ? ": Sendable" : "") {
                    struct Entry { var id = 0 }
                    init() {}
                    func find(uuid: String, transaction: LegacyTransaction) -> Folder? { nil }
                    func save(_ folder: Folder, transaction: LegacyTransaction) {}
                    func count(transaction: LegacyTransaction) -> Int { 0 }
                    func entries(transaction: LegacyTransaction) -> [FolderStore.Entry] { [] }
                }
                """),
            ("Manager.swift", """
                final class Manager {
                    let store = FolderStore()
                    init() {}
                    func run(_ tx: DBWriteTransaction) throws {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        store.save(store.find(uuid: "u", transaction: legacy)!, transaction: legacy)
                        _ = store.count(transaction: legacy)
                        _ = store.entries(transaction: legacy)
                    }
                }
                """),
        ])
    }

    static func mock(_ tree: InlineTree) throws -> String {
        let files = try tree.generator.shim(consumer: "Manager", legacy: "FolderStore").files
        return try #require(files.first { $0.path.hasSuffix("Manager_FolderStoreMock.swift") }).contents
    }

    @Test func membersPassingAModelClassGetANonSendableMockMethod() throws {
        let tree = try Self.tree(legacySendable: false)
        let mock = try Self.mock(tree)
        #expect(mock.contains("final class Manager_FolderStoreMock: Manager_FolderStoreShim {"))
        #expect(mock.contains("= NonSendableMockMethod<String, Folder?>()"))
        #expect(mock.contains("= NonSendableMockMethod<Folder, Void>()"))
        // Sendable values keep a MockMethod; a nested type is not its class.
        #expect(mock.contains("= MockMethod<Void, Int>()"))
        #expect(mock.contains("= MockMethod<Void, [FolderStore.Entry]>()"))
        // --apply no longer refuses the pair.
        #expect(try !tree.generator.shim(consumer: "Manager", legacy: "FolderStore").edits.get().isEmpty)
    }

    /// A struct is implicitly `Sendable` only when what it stores is:
    /// `struct TagInfo { var item: Item }` of a model class `Item` is not.
    /// Its `MockMethod` did not compile ("type 'TagInfo' does not conform
    /// to the 'Sendable' protocol"; fuzzer P5 of seed 20261128901, issue 51).
    @Test func aStructStoringAModelClassGetsANonSendableMockMethod() throws {
        let tree = try InlineTree([
            ("Folder.swift", """
                final class Folder {
                    var name = ""
                    init() {}
                }
                struct Listing {
                    var folder: Folder
                    var count: Int
                }
                struct Summary {
                    var count: Int
                    var label: String { "\\(count)" }
                }
                """),
            ("FolderStore.swift", """
                final class FolderStore {
                    init() {}
                    func listings(transaction: LegacyTransaction) -> [Listing] { [] }
                    func summary(transaction: LegacyTransaction) -> Summary { Summary(count: 0) }
                }
                """),
            ("Manager.swift", """
                final class Manager {
                    let store = FolderStore()
                    init() {}
                    func run(_ tx: DBWriteTransaction) throws {
                        let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                        _ = store.listings(transaction: legacy)
                        _ = store.summary(transaction: legacy)
                    }
                }
                """),
        ])
        let mock = try Self.mock(tree)
        #expect(mock.contains("= NonSendableMockMethod<Void, [Listing]>()"), "\(mock)")
        #expect(mock.contains("= MockMethod<Void, Summary>()"), "\(mock)")
    }

    @Test func theMockOfASendableShimIsUncheckedSendable() throws {
        let mock = try Self.mock(Self.tree(legacySendable: true))
        #expect(mock.contains("final class Manager_FolderStoreMock: Manager_FolderStoreShim, @unchecked Sendable {"))
    }
}
#endif
