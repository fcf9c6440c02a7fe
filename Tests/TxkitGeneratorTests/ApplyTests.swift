#if Txkit
import Foundation
import Testing
import TxkitGenerator
import TxkitGeneratorTestSupport

/// `txkit shim --apply`: the edit it makes to a consumer, golden against
/// the fixture the package compiles and tests (Fixtures/Apply), and the
/// uses it refuses to guess about.
@Suite("shim --apply")
struct ApplyTests {
    static let fixture = RepositoryPaths.fixtures + "/Apply"

    /// Runs `shim --apply` for each legacy type in order, in a copy of the
    /// fixture's "before" consumer; returns the folder.
    static func applyToACopy(legacies: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-apply-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/After", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture + "/Before/Checkout.swift", toPath: folder + "/After/Checkout.swift")
        var configuration = try GeneratorConfiguration.load(from: fixture)
        configuration.sources = ["After", RepositoryPaths.fixtures + "/Generator/Sources/GeneratorFixture/Legacy"]
        configuration.mocksFolder = "Mocks"
        for legacy in legacies {
            let generator = try Generator(root: folder, configuration: configuration)
            let files = try generator.shim(consumer: "Checkout", legacy: legacy).files
            let edits = try generator.shim(consumer: "Checkout", legacy: legacy).edits.get()
            #expect(edits.count == 1)
            try GeneratedFileWriter(root: folder).write(files)
            for edit in edits {
                try edit.write()
            }
        }
        return folder
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func theFixtureIsWhatApplyMakesOfTheLegacyConsumer() throws {
        let folder = try Self.applyToACopy(legacies: ["ItemStore", "Counters"])
        defer { try? FileManager.default.removeItem(atPath: folder) }

        #expect(try Self.read(folder + "/After/Checkout.swift") == Self.read(Self.fixture + "/After/Checkout.swift"))
        for name in ["Checkout_ItemStoreShim", "Checkout_ItemStoreWrapper", "Checkout_CountersShim",
                     "Checkout_CountersWrapper", "Checkout+Shortcuts"] {
            let path = "/After/Shortcuts/Checkout/\(name).swift"
            #expect(try Self.read(folder + path) == Self.read(Self.fixture + path), "\(name)")
        }
        for name in ["Checkout_ItemStoreMock", "Checkout_CountersMock", "Checkout+Mocks"] {
            let generated = try Self.read(folder + "/Mocks/\(name).swift")
            #expect(generated == (try Self.read(RepositoryPaths.fixtures + "/Apply/Tests/ApplyFixtureTests/Mocks/\(name).swift")), "\(name)")
        }
    }

    @Test func theEditRoutesEveryUseAndDropsTheBridgeLocals() throws {
        let folder = try Self.applyToACopy(legacies: ["ItemStore", "Counters"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let migrated = try Self.read(folder + "/After/Checkout.swift")
        #expect(!migrated.contains("shimOnlyBridge"))
        #expect(!migrated.contains("StoreTransaction"))
        #expect(!migrated.contains("Counters."))
        #expect(migrated.contains("let store: Checkout.Shims.ItemStore"))
        #expect(migrated.contains("counters: Checkout.Shims.Counters = Checkout.Wrappers.Counters()"))
        #expect(migrated.contains("try self.counters.next(\"checkout\", tx)"))
        // The legacy summary(transaction:) does not throw; the shim does.
        #expect(migrated.contains("\\(try store.summary(tx))"))
    }

    @Test func applyingTwiceChangesNothing() throws {
        let folder = try Self.applyToACopy(legacies: ["ItemStore"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = try GeneratorConfiguration.load(from: Self.fixture)
        configuration.sources = ["After", RepositoryPaths.fixtures + "/Generator/Sources/GeneratorFixture/Legacy"]
        let generator = try Generator(root: folder, configuration: configuration)
        #expect(try generator.shim(consumer: "Checkout", legacy: "ItemStore").edits.get().isEmpty)
        // Counters is still used directly: its edit is still to make.
        #expect(try generator.shim(consumer: "Checkout", legacy: "Counters").edits.get().count == 1)
    }

    // MARK: Refusals

    static let legacy = """
        struct LegacyTransaction {}
        final class Finder: Sendable {
            init() {}
            func find(id: Int64, transaction: LegacyTransaction) throws -> String? { nil }
            static func count(transaction: LegacyTransaction) throws -> Int { 0 }
        }
        """

    static func apply(_ consumer: String) throws -> [ConsumerEdit] {
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [("Legacy.swift", legacy), ("Consumer.swift", consumer)]))
        return try generator.shim(consumer: "C", legacy: "Finder").edits.get()
    }

    @Test func aUseThroughALocalIsRefusedWithItsPlace() throws {
        // A local that holds a temporary is routed, and so is a
        // parameter of the legacy type (ApplyParameterTests); a local that
        // holds something else is not.
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply("""
                final class C {
                    init() {}
                    func f(_ tx: DBReadTransaction, other: Finder) throws {
                        let finder: Finder = other
                        _ = try finder.find(id: 1, transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                    }
                }
                """)
        }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:5"))
        #expect(message.contains("goes through `finder`"))
    }

    @Test func aTransactionNotBuiltWithTheBridgeIsRefused() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply("""
                final class C {
                    let finder: Finder
                    init(finder: Finder) { self.finder = finder }
                    func f(_ legacy: LegacyTransaction) throws -> String? {
                        try finder.find(id: 1, transaction: legacy)
                    }
                }
                """)
        }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:5"))
        // Received from the caller: the one step, with the reverse bridge.
        #expect(message.contains("`legacy` is a parameter of C.f: C still receives the legacy transaction"))
        #expect(message.contains("make f take `legacy: DBReadTransaction`"))
        #expect(message.contains("pass `sqlite.readTransaction(bridging: <its transaction>)`"))
    }

    @Test func theApplicationsOwnBlockIsRefusedWithTheStep() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply("""
                final class C {
                    let finder: Finder
                    init(finder: Finder) { self.finder = finder }
                    func f(_ pool: Pool) throws -> String? {
                        try pool.write { legacy in try finder.find(id: 1, transaction: legacy) }
                    }
                }
                """)
        }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:5"))
        #expect(message.contains("`legacy` is the connection of `pool.write { legacy in … }`"))
        // The default reverse bridge is on `sqlite`: `db` is GRDB's connection there.
        #expect(message.contains("give C the SQLiteDB that adopted the application's pool as a stored property `sqlite`"))
        #expect(message.contains("passes `try sqlite.readTransaction(bridging: legacy)`"))
        // The default reverse bridge is not advised for a legacy type that
        // is not GRDB's.
        #expect(message.contains("reverseBridge; this default takes GRDB's `Database` only: for LegacyTransaction, write the expression"))
    }

    @Test func aConsumerWithoutAnInitializerIsAskedForOne() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply("""
                struct C {
                    func f(_ tx: DBReadTransaction) throws -> Int {
                        try Finder.count(transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                    }
                }
                """)
        }
        #expect(try #require(error).description.contains("declares no initializer"))
    }

    @Test func aUseInAStaticMemberIsRefused() throws {
        let error = #expect(throws: GeneratorError.self) {
            try Self.apply("""
                final class C {
                    init() {}
                    static func total(_ tx: DBReadTransaction) throws -> Int {
                        try Finder.count(transaction: LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx)))
                    }
                }
                """)
        }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:4"))
        #expect(message.contains("is in a static member"))
    }

    @Test func aStaticUseGetsAPropertyAndAnInitializerParameter() throws {
        let edits = try Self.apply("""
            final class C {
                let name: String

                init(name: String) {
                    self.name = name
                }

                func count(_ tx: DBReadTransaction) throws -> Int {
                    let legacy = LegacyTransaction(try SQLiteDB.shimOnlyBridge(tx))
                    return try Finder.count(transaction: legacy)
                }
            }
            """)
        #expect(edits.map(\.edited) == ["""
            final class C {
                let name: String
                let finder: C.Shims.Finder

                init(name: String, finder: C.Shims.Finder = C.Wrappers.Finder()) {
                    self.name = name
                    self.finder = finder
                }

                func count(_ tx: DBReadTransaction) throws -> Int {
                    return try self.finder.count(tx)
                }
            }
            """])
    }
}
#endif
