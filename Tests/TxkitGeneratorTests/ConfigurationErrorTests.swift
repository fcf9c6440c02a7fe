#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A txkit.json that is missing or wrong is reported with the file, the
/// key and the fix, never as Swift's raw DecodingError, and a misspelled
/// key is an error instead of being ignored.
@Suite("txkit.json errors")
struct ConfigurationErrorTests {
    /// Writes `json` as txkit.json in a new folder and loads it.
    static func load(_ json: String) throws -> GeneratorConfiguration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try json.write(to: folder.appendingPathComponent("txkit.json"), atomically: true, encoding: .utf8)
        return try GeneratorConfiguration.loadRequired(from: folder.path)
    }

    /// The setting error `json` raises: its key and whole message.
    static func settingError(_ json: String) throws -> (key: String, message: String) {
        let error = try #require(throws: GeneratorError.self) { try load(json) }
        guard case let .invalidSetting(path, key, _, _) = error else {
            Issue.record("expected invalidSetting, got \(error)")
            return ("", "")
        }
        #expect(path.hasSuffix("/txkit.json"))
        #expect(!error.description.contains("DecodingError"))
        #expect(!error.description.contains("CodingKeys"))
        return (key, error.description)
    }

    @Test func aMissingFileSaysToRunInit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-none-\(UUID().uuidString)").path
        let error = try #require(throws: GeneratorError.self) { try GeneratorConfiguration.loadRequired(from: folder) }
        #expect(error == .missingConfiguration(path: folder + "/txkit.json"))
        #expect(error.description.contains("txkit init"))
        #expect(error.description.contains(folder + "/txkit.json"))
    }

    @Test func aMisspelledKeyIsAnErrorThatSuggestsTheKey() throws {
        let (key, message) = try Self.settingError(#"{ "sourcs": ["Sources"] }"#)
        #expect(key == "sourcs")
        #expect(message.contains(#"Did you mean "sources"?"#))
    }

    @Test func aMisspelledKeyInALegacyTransactionNamesItsEntry() throws {
        let (key, message) = try Self.settingError("""
            { "legacyTransactions": [
                { "type": "Database", "transaction": "infer", "bridge": "try SQLiteDB.shimOnlyBridge($tx)" },
                { "type": "Tx", "transaction": "infer", "brige": "Tx(try SQLiteDB.shimOnlyBridge($tx))" } ] }
            """)
        #expect(key == "legacyTransactions[1].brige")
        #expect(message.contains(#"Did you mean "bridge"?"#))
    }

    @Test func aStringWhereAListGoesNamesTheKeyAndTheShape() throws {
        let (key, message) = try Self.settingError(#"{ "sources": "Sources" }"#)
        #expect(key == "sources")
        #expect(message.contains("a list of strings"))
    }

    @Test func anUnknownTransactionKindListsTheKinds() throws {
        let (key, message) = try Self.settingError("""
            { "legacyTransactions": [ { "type": "Tx", "transaction": "maybe", "bridge": "Tx($tx)" } ] }
            """)
        #expect(key == "legacyTransactions[0].transaction")
        #expect(message.contains(#""read", "write", "infer""#))
    }

    @Test func aMissingBridgeIsNamed() throws {
        let (key, message) = try Self.settingError(#"{ "legacyTransactions": [ { "type": "Tx", "transaction": "read" } ] }"#)
        #expect(key == "legacyTransactions[0].bridge")
        #expect(message.contains("missing"))
    }

    @Test func aBridgeWithoutTxAndAWrongAccessLevelNameTheirKeys() throws {
        let bridge = try Self.settingError(#"{ "legacyTransactions": [ { "type": "Tx", "transaction": "read", "bridge": "Tx()" } ] }"#)
        #expect(bridge.key == "legacyTransactions[0].bridge")
        #expect(bridge.message.contains("$tx"))
        let access = try Self.settingError(#"{ "accessLevel": "open" }"#)
        #expect(access.key == "accessLevel")
        #expect(access.message.contains(#""public", "package" or "internal""#))
    }

    @Test func mockImportsTakeTestableAndOtherImportsTakeModuleNames() throws {
        // `@testable App` was accepted, then written as `import @testable App` (issue 38).
        let configuration = try Self.load(#"{ "mockImports": ["@testable App", "Models"] }"#)
        #expect(configuration.mockImports == ["@testable App", "Models"])
        let shim = try Self.settingError(#"{ "shimImports": ["@testable App"] }"#)
        #expect(shim.key == "shimImports[0]")
        #expect(shim.message.contains(#"only mockImports takes "@testable App""#))
        let spaced = try Self.settingError(#"{ "wrapperImports": ["TransactionKitSQLite", "A B"] }"#)
        #expect(spaced.key == "wrapperImports[1]")
    }

    @Test func invalidJSONIsReportedAsSyntax() throws {
        let (key, message) = try Self.settingError(#"{ "sources": ["Sources" "#)
        #expect(key == "(the file)")
        #expect(message.contains("not valid JSON"))
    }

    @Test func commentKeysAreIgnoredAtEveryLevel() throws {
        let configuration = try Self.load("""
            { "// sources": "the app", "sources": ["App"],
              "legacyTransactions": [ { "// type": "GRDB's", "type": "Database", "transaction": "write",
                                        "bridge": "try SQLiteDB.shimOnlyBridge($tx)" } ] }
            """)
        #expect(configuration.sources == ["App"])
        #expect(configuration.legacyTransactions.map(\.type) == ["Database"])
    }

    @Test func everySettingOfTheDefaultsIsAKnownKey() {
        let keys = GeneratorConfiguration.knownKeys
        #expect(keys.top.contains("sources") && keys.top.contains("accessLevel") && keys.top.contains("shimImports"))
        #expect(keys.legacy.sorted() == ["bridge", "renamedMembers", "reverseBridge", "transaction", "type"])
        #expect(keys.reverseBridge.sorted() == ["read", "write"])
    }

    @Test func mockOfAClassSaysSoInASentence() throws {
        let sources = try SourceSet(sources: [(path: "Finder.swift", text: "final class Finder { func find() {} }")])
        let generator = Generator(configuration: .defaults, sources: sources)
        let error = try #require(throws: GeneratorError.self) { try generator.mock(protocol: "Finder") }
        #expect(error.description.hasPrefix("txkit mock cannot mock Finder; nothing was written:"))
        #expect(error.description.contains("Finder.swift:1: Finder is a class, not a protocol"))
        #expect(error.description.contains("txkit shim --consumer MANAGER --legacy Finder"))
        #expect(!error.description.contains("cannot be shimmed"))
    }
}
#endif
