#if Txkit
import Testing
import TxkitGenerator

/// The inventory counts the uses the scan resolves, wherever they come
/// from, and lists every other reference to a legacy type.
@Suite("Inventory resolution")
struct InventoryResolutionTests {
    // A type with a member that takes the legacy transaction is a legacy
    // type itself: the consumers here build theirs.
    static let legacy = """
        struct LegacyTransaction {}
        final class Legacy {
            static let shared = Legacy()
            init() {}
            func find(id: Int, transaction: LegacyTransaction) -> Int? { nil }
        }
        final class Holder {
            var legacy = Legacy()
        }
        """

    @Test func usesThatNeverNameTheLegacyTypeAreCounted() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", """
            final class ThroughAChain {
                func run(_ holder: Holder) { _ = holder.legacy.find(id: 1, transaction: LegacyTransaction()) }
            }
            final class ThroughASingleton {
                let store = Legacy.shared
                func run() { _ = store.find(id: 1, transaction: LegacyTransaction()) }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.legacyTypes == ["Legacy"])
        // Holder only holds a Legacy, for ThroughAChain: wiring (a
        // container such as `Services.shared`), not a use.
        #expect(inventory.uses.map(\.consumer).sorted() == ["ThroughAChain", "ThroughASingleton"])
        #expect(inventory.uses.allSatisfy { $0.type == "Legacy" && $0.state == .direct })
        #expect(inventory.unresolved.isEmpty)
        #expect(inventory.progressLine.hasSuffix("unresolved: 0"))
    }

    /// Uses in a type nested in another (declared in an extension of it)
    /// count for the nested type alone, and `decode(Event.self)` is no use
    /// of `Event`.
    @Test func usesInANestedTypeAndTheTypeAsAValueAreNotTheEnclosingTypesUses() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Engine.swift", """
            final class Engine {
                func start() {}
            }
            extension Engine {
                final class Session {
                    func run() { _ = Legacy.shared.find(id: 1, transaction: LegacyTransaction()) }
                }
            }
            struct Response: Decodable {
                struct Events {
                    func decode<T>(_ type: T.Type) -> T? { nil }
                    func all() -> Legacy? { decode(Legacy.self) }
                }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.uses.map { "\($0.consumer) → \($0.type)" } == ["Session → Legacy"])
    }

    /// A line that names the legacy type twice
    /// (`(event: Event, cb: (Result<Event, Error>) -> Void)`) is listed
    /// once as unresolved.
    @Test func aLineThatNamesTheTypeTwiceIsListedOnce() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", """
            final class Batch {
                let pairs: [(Legacy, Legacy)] = []
                func run() {
                    for pair in pairs { _ = pair.0.find(id: 1, transaction: LegacyTransaction()) }
                }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.unresolved.map(\.location) == ["Consumer.swift:2"])
    }

    /// A protocol whose requirements take the legacy transaction
    /// (`protocol Schema { func create(_ db: SQLiteDBConnection) -> Bool }`)
    /// is a legacy type, and its callers' uses are counted. A protocol
    /// whose extension alone takes the transaction is not one: its members
    /// are called through the conforming types.
    @Test func aProtocolWhoseRequirementsTakeTheLegacyTransactionIsALegacyType() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Schema.swift", """
            protocol Schema {
                func create(_ transaction: LegacyTransaction) -> Bool
            }
            protocol Shared {}
            extension Shared {
                func count(_ transaction: LegacyTransaction) -> Int { 0 }
            }
            final class Connection {
                func open(_ schema: any Schema) -> Bool { schema.create(LegacyTransaction()) }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.legacyTypes.sorted() == ["Legacy", "Schema"])
        #expect(inventory.uses.map { "\($0.consumer) → \($0.type)" } == ["Connection → Schema"])
    }

    @Test func aReferenceItCannotFollowIsListedWithItsPlace() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", """
            final class Batch {
                let finders: [Legacy] = []
                func run() {
                    for finder in finders { _ = finder.find(id: 1, transaction: LegacyTransaction()) }
                }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.unresolved == [
            .init(consumer: "Batch", type: "Legacy", location: "Consumer.swift:2", text: "let finders: [Legacy] = []"),
        ])
        #expect(!inventory.uses.contains { $0.consumer == "Batch" })
        #expect(inventory.progressLine.hasSuffix("unresolved: 1"))
    }

    /// A type nested in the legacy type (`Legacy.Entry`, a result or model
    /// type), wherever a manager returns it, is no use of the legacy type
    /// and no unresolved reference to it.
    @Test func aTypeNestedInTheLegacyTypeIsNoUse() throws {
        let legacy = Self.legacy.replacingOccurrences(of: "    init() {}", with: "    struct Entry { var id = 0 }\n    init() {}")
        let tree = try InlineTree([("Legacy.swift", legacy), ("Consumer.swift", """
            final class Manager {
                let store = Legacy()
                func entries() -> [Legacy.Entry] {
                    _ = store.find(id: 1, transaction: LegacyTransaction())
                    return [Legacy.Entry(id: 1)]
                }
            }
            final class Presenter {
                func show(_ entries: [Legacy.Entry]) -> Int { entries.count }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.unresolved.isEmpty)
        #expect(inventory.uses.map(\.consumer).sorted() == ["Manager"])
    }

    /// A type of the same name as a legacy type, nested in another type
    /// (`SecureVaultModels.CredentialsProvider` beside a
    /// `CredentialsProvider` legacy class of another module), is no use of
    /// the legacy type.
    @Test func aTypeOfTheSameNameNestedElsewhereIsNoUse() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Models.swift", """
            enum Models {
                struct Legacy { var name = "" }
            }
            final class Vault {
                var provider: Models.Legacy { Models.Legacy(name: "x") }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(!inventory.uses.contains { $0.consumer == "Models" || $0.consumer == "Vault" })
        #expect(inventory.unresolved.isEmpty)
    }

    /// Types that hold legacy values as models (a GRDB record inside a
    /// fetched info struct, a computed property returning a record built
    /// from a domain value) and call only members without a legacy
    /// transaction make no direct use: only data access is listed.
    @Test func holdingOrBuildingALegacyValueIsNoUse() throws {
        let legacy = Self.legacy.replacingOccurrences(
            of: "    init() {}", with: "    init() {}\n    var title: String { \"\" }\n    func summary() -> String { \"\" }")
        let tree = try InlineTree([("Legacy.swift", legacy), ("Models.swift", """
            struct Info {
                let legacy: Legacy
                let others: [Legacy]
                func text() -> String { legacy.summary() + legacy.title }
            }
            struct Domain {
                var record: Legacy { Legacy() }
            }
            final class Reader {
                let legacy: Legacy
                init(legacy: Legacy) { self.legacy = legacy }
                func run() -> Int? { legacy.find(id: 1, transaction: LegacyTransaction()) }
            }
            """)])
        let inventory = tree.generator.inventory()
        #expect(inventory.uses.map(\.consumer).sorted() == ["Reader"])
    }
}
#endif
