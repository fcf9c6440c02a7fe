#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// Shapes of public apps' data-access code that txkit must handle, each as
/// the smallest input that shows it.
@Suite("Real-app regressions")
struct RealAppRegressionTests {
    /// `Schema`, a protocol whose members take the connection: a `Sendable`
    /// shim's wrapper would hold an `any Schema` (not `Sendable`) and not
    /// compile in Swift 6 mode. A protocol's shim is `Sendable` only when
    /// the protocol refines it.
    @Test func theShimOfANonSendableLegacyProtocolIsNotSendable() throws {
        let consumer = """
            public final class Opener {
                let schema: Schema
                let conn: Conn
                public init(schema: Schema, conn: Conn) { self.schema = schema; self.conn = conn }
                public func open() -> Bool { schema.create(conn) }
            }
            """
        let legacy = { (refines: String) in "public protocol Conn {}\npublic protocol Schema\(refines) {\n    func create(_ db: Conn) -> Bool\n}\n" }
        let plain = try InlineTree([("Legacy.swift", legacy("")), ("Opener.swift", consumer)], transaction: "Conn")
        #expect(try plain.shim("Opener", "Schema").contains("protocol Opener_SchemaShim {"))
        for refined in [": Sendable", ": Error"] {
            let sendable = try InlineTree([("Legacy.swift", legacy(refined)), ("Opener.swift", consumer)], transaction: "Conn")
            #expect(try sendable.shim("Opener", "Schema").contains("protocol Opener_SchemaShim: Sendable {"))
        }
    }

    /// An app's own `class Database` (a queue wrapper) shadows GRDB's in
    /// its module: a wrapper would pass GRDB's connection where the app's
    /// type is expected, so `shim` refuses, naming the declaration, and
    /// `init` proposes only `GRDB.Database` there.
    @Test func anAppsOwnDatabaseIsNotTakenForGRDBs() throws {
        let files = [
            ("Database.swift", "import GRDB\n\nclass Database {\n    let dbQueue: DatabaseQueue\n    init(dbQueue: DatabaseQueue) { self.dbQueue = dbQueue }\n}\n"),
            ("Settings.swift", """
                import GRDB

                class Settings {
                    static func loadHomeserver(from database: Database) throws -> String? { nil }
                    static func count(_ db: GRDB.Database) throws -> Int { 0 }
                }
                """),
            ("Session.swift", """
                class Session {
                    private let database: Database
                    init(database: Database) { self.database = database }
                    func homeserver() throws -> String? { try Settings.loadHomeserver(from: database) }
                }
                """),
        ]
        let tree = try InlineTree(files, transaction: "Database", bridge: "try SQLiteDB.shimOnlyBridge($tx)")
        let error = #expect(throws: GeneratorError.self) { try tree.shim("Session", "Settings") }
        let message = try #require(error).description
        #expect(message.contains("Database.swift:3"))
        #expect(message.contains("declare a class Database of their own"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-realapp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/Sources/App", withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(toFile: folder + "/Sources/App/" + name, atomically: true, encoding: .utf8)
        }
        let proposal = try ConfigurationProposal(root: folder)
        #expect(proposal.candidates == [.init(type: "GRDB.Database", parameterCount: 1)])
    }

    /// Stores that build their dependency in their initializer
    /// (`self.manager = Manager(storage: storage)`): so that a test can
    /// pass a mock, the initializer takes an optional shim, defaulted to
    /// nil, and builds the production value when it gets none; a bare
    /// `store = …` becomes `self.store = …`.
    @Test func aFinderBuiltInTheInitializerCanBeInjected() throws {
        let legacy = """
            final class Storage {}
            final class VariationManager {
                init(storage: Storage) {}
                func count(transaction: LegacyTransaction) throws -> Int { 0 }
            }
            """
        let consumer = { (assignment: String) in """
            final class ProductStore {
                private let variations: VariationManager
                init(storage: Storage) {
                    \(assignment) = VariationManager(storage: storage)
                }
                func total(_ tx: DBReadTransaction) throws -> Int {
                    try variations.count(transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                }
            }
            """ }
        for assignment in ["self.variations", "variations"] {
            let tree = try InlineTree([("Legacy.swift", legacy), ("ProductStore.swift", consumer(assignment))])
            let edits = try tree.generator.shim(consumer: "ProductStore", legacy: "VariationManager").edits.get()
            let edited = try #require(edits.first { $0.path == "ProductStore.swift" }).edited
            #expect(edited.contains("init(storage: Storage, variations: ProductStore.Shims.VariationManager? = nil) {"))
            #expect(edited.contains(
                "self.variations = variations ?? ProductStore.Wrappers.VariationManager(VariationManager(storage: storage))"))
            #expect(edited.contains("private let variations: ProductStore.Shims.VariationManager\n"))
        }
    }

    /// A public messaging app's finders: `protocol ThreadFinder {
    /// associatedtype ReadTransaction }` with two conforming classes, one
    /// `typealias ReadTransaction = AppReadTransaction`, the other another
    /// transaction. The shim of the first has one requirement per member,
    /// taking `DBReadTransaction`: the protocol's requirement, which the
    /// class implements through its alias, is not a second member that
    /// keeps `transaction: ReadTransaction` unqualified and unconverted.
    @Test func aRequirementImplementedThroughAnAssociatedTypeAliasIsOneMember() throws {
        let tree = try InlineTree([("ThreadFinder.swift", """
            final class AppReadTransaction {}
            final class GRDBReadTransaction {}
            protocol ThreadFinder {
                associatedtype ReadTransaction
                func thread(id: String, transaction: ReadTransaction) -> String?
            }
            final class AppThreadFinder: ThreadFinder {
                typealias ReadTransaction = AppReadTransaction
                init() {}
                func thread(id: String, transaction: ReadTransaction) -> String? { nil }
            }
            final class GRDBThreadFinder: ThreadFinder {
                typealias ReadTransaction = GRDBReadTransaction
                func thread(id: String, transaction: ReadTransaction) -> String? { nil }
            }
            """), ("ThreadManager.swift", """
            final class ThreadManager {
                let finder: AppThreadFinder
                init(finder: AppThreadFinder = AppThreadFinder()) { self.finder = finder }
                func title(_ tx: DBReadTransaction) throws -> String? {
                    finder.thread(id: "1", transaction: AppReadTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                }
            }
            """)], transaction: "AppReadTransaction")
        #expect(try tree.requirements("ThreadManager", "AppThreadFinder") == [
            "func thread(id: String, _ tx: DBReadTransaction) throws -> String?",
        ])
    }
}
#endif
