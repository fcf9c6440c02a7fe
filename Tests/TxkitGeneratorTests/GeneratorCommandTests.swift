#if Txkit
import ArgumentParser
import Foundation
import Testing
import TxkitCommands
@testable import TxkitGenerator
import TxkitGeneratorTestSupport

/// The generator's first five minutes, through its commands: `txkit init`
/// writes a configuration the other commands accept, `--dry-run` writes
/// nothing, and plain `txkit` prints help.
@Suite("txkit commands")
struct GeneratorCommandTests {
    /// A copy of the plugin consumer fixture (an app with a legacy finder
    /// on GRDB's Database), in a new temporary folder.
    static func consumerCopy(withConfiguration: Bool) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: RepositoryPaths.fixtures + "/PluginConsumer")
        for item in ["Sources", "Tests"] + (withConfiguration ? ["txkit.json"] : []) {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        return folder.path
    }

    /// Every file under `folder` with its text.
    static func snapshot(_ folder: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        while let relative = enumerator.nextObject() as? String {
            let path = (folder as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try String(contentsOfFile: path, encoding: .utf8)
            }
        }
        return files
    }

    @Test func initProposesTheLegacyTransactionTypeAndWritesALoadableFile() throws {
        let folder = try Self.consumerCopy(withConfiguration: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = try InitCommand.parse(["--root", folder])
        try command.run()
        let configuration = try GeneratorConfiguration.loadRequired(from: folder)
        #expect(configuration.sources == ["Sources/Orders"])
        #expect(configuration.legacyTransactions.map(\.type) == ["Database"])
        #expect(configuration.legacyTransactions.first?.bridge == "try SQLiteDB.shimOnlyBridge($tx)")
        #expect(configuration.shimsFolder == "Sources/Orders/Shortcuts/$consumer")
        #expect(configuration.mocksFolder == "Tests/OrdersTests/Mocks")
        // The mocks, in the test target, extend the (internal) managers
        // and see their shims.
        #expect(configuration.mockImports == ["@testable Orders"])
        // OrderManager's initializer is public: a package wrapper as its
        // default value would not compile, so init proposes public (under
        // "package", --apply would refuse the pair).
        #expect(configuration.accessLevel == .public)
        let text = try String(contentsOfFile: folder + "/txkit.json", encoding: .utf8)
        #expect(text.contains(#""// legacyTransactions": "#))
        // What init wrote is enough for the next command of the guide.
        let inventory = try Generator(root: folder, configuration: configuration).inventory()
        #expect(inventory.uses.map(\.consumer) == ["OrderManager"])
    }

    @Test func initProposesPackageAccessWhenNoInitializerIsPublic() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-internal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Sources/App", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            import GRDB
            final class TaskStore { func count(_ db: Database) throws -> Int { 0 } }
            public final class TaskManager {
                init(store: TaskStore = TaskStore()) {}
            }
            """.write(toFile: folder + "/Sources/App/App.swift", atomically: true, encoding: .utf8)
        let proposal = try ConfigurationProposal(root: folder)
        #expect(proposal.accessLevel == .package)
        #expect(proposal.render().contains(#""accessLevel": "package""#))
    }

    @Test func initNeverOverwritesAConfiguration() throws {
        let folder = try Self.consumerCopy(withConfiguration: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try Self.snapshot(folder)
        let command = try InitCommand.parse(["--root", folder])
        #expect(throws: (any Error).self) { try command.run() }
        #expect(try Self.snapshot(folder) == before)
    }

    @Test func initWithoutLegacyTypesSaysSoInTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Sources/App", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "struct App {}\n".write(toFile: folder + "/Sources/App/App.swift", atomically: true, encoding: .utf8)
        let proposal = try ConfigurationProposal(root: folder)
        #expect(proposal.candidates.isEmpty)
        #expect(proposal.render().contains("found no parameter of GRDB's Database"))
    }

    @Test func legacyTransactionNamesAreReadFromParameterTypes() {
        let name = { (type: String, importsGRDB: Bool, declared: Set<String>) in
            ConfigurationProposal.legacyTransactionName(type, importsGRDB: importsGRDB, declared: declared)
        }
        let app: Set<String> = ["StoreTransaction"]
        #expect(name("Database", true, app) == "Database")
        #expect(name("Database", false, app) == nil)
        #expect(name("GRDB.Database?", false, app) == "Database")
        #expect(name("inout StoreTransaction", false, app) == "StoreTransaction")
        #expect(name("DBWriteTransaction", true, app) == nil)
        #expect(name("[StoreTransaction]", true, app) == nil)
        // A `Transaction` the sources do not declare (StoreKit's) is no
        // legacy transaction; an app's own `class Database` shadows GRDB's,
        // so only `GRDB.Database` is GRDB's there, and it is proposed as
        // spelled.
        #expect(name("Transaction", false, app) == nil)
        #expect(name("Database", true, app.union(["Database"])) == nil)
        #expect(name("GRDB.Database", true, app.union(["Database"])) == "GRDB.Database")
    }

    @Test func applyDryRunWritesNothing() throws {
        let folder = try Self.consumerCopy(withConfiguration: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try Self.snapshot(folder)
        let command = try ShimCommand.parse([
            "--root", folder, "--sources", "Sources/Orders",
            "--consumer", "OrderManager", "--legacy", "LegacyOrderFinder", "--apply", "--dry-run",
        ])
        try command.run()
        #expect(try Self.snapshot(folder) == before)
        // The same command without --dry-run does write: the test above
        // would have seen it.
        let applying = try ShimCommand.parse([
            "--root", folder, "--sources", "Sources/Orders",
            "--consumer", "OrderManager", "--legacy", "LegacyOrderFinder", "--apply",
        ])
        try applying.run()
        #expect(try Self.snapshot(folder) != before)
    }

    @Test func mockDryRunWritesNothing() throws {
        let folder = try Self.consumerCopy(withConfiguration: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            import TransactionKit
            public protocol OrderFinding { func count(_ tx: DBReadTransaction) throws -> Int }
            """.write(toFile: folder + "/Sources/Orders/OrderFinding.swift", atomically: true, encoding: .utf8)
        let before = try Self.snapshot(folder)
        let command = try MockCommand.parse(["--root", folder, "--sources", "Sources/Orders", "--protocol", "OrderFinding", "--dry-run"])
        try command.run()
        #expect(try Self.snapshot(folder) == before)
    }

    @Test func checkAndDryRunTogetherAreRefused() {
        #expect(throws: (any Error).self) {
            _ = try MockCommand.parse(["--protocol", "P", "--check", "--dry-run"])
        }
    }

    /// A root command as both `txkit`s declare theirs.
    struct Root: ParsableCommand {
        static let configuration = GeneratorCommands.rootConfiguration(abstract: "test", discussion: "test")
    }

    @Test func plainTxkitPrintsHelp() throws {
        #expect(Root.configuration.defaultSubcommand == nil)
        var command = try Root.parseAsRoot([])
        // A command with subcommands and no default one answers with its help.
        let exit = try #require(throws: CleanExit.self) { try command.run() }
        #expect(Root.exitCode(for: exit) == .success)
        let help = Root.helpMessage()
        for name in ["init", "inventory", "shim", "mock", "convert"] {
            #expect(help.contains("  \(name) "))
        }
    }

    @Test func aCommandWithoutConfigurationSaysToRunInit() throws {
        let folder = try Self.consumerCopy(withConfiguration: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = try InventoryCommand.parse(["--root", folder])
        let error = try #require(throws: GeneratorError.self) { try command.run() }
        #expect(error.description.contains("txkit init"))
    }
}
#endif
