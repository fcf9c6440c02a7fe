#if Txkit
import Foundation
import Testing
import TxkitGenerator
import TxkitGeneratorTestSupport

/// The golden tests: the files `txkit` generated for the fixture (legacy
/// types of every supported shape, Sources/GeneratorFixture) and for the
/// Messaging example are committed, compiled by the package, and must be
/// exactly what the generator writes now.
@Suite("Generated files are current")
struct GeneratedFilesAreCurrentTests {
    static func regenerate(root: String) throws -> (files: [GeneratedFile], differences: [GeneratedFileWriter.Difference]) {
        let generator = try Generator(root: root, configuration: GeneratorConfiguration.load(from: root))
        let files = try generator.shimAll()
        return (files, try GeneratedFileWriter(root: root).check(files))
    }

    @Test func theFixtureCoversEveryShapeAndIsCurrent() throws {
        let root = RepositoryPaths.fixtures + "/Generator"
        let (files, differences) = try Self.regenerate(root: root)
        #expect(differences.isEmpty, "\(differences.map(\.description).joined(separator: "\n"))")
        // Three legacy types (class, struct, enum): shim, wrapper, mock
        // each, and the two namespaces.
        #expect(files.count == 11)
        let shim = try #require(files.first { $0.path.hasSuffix("ItemManager_ItemStoreShim.swift") })
        for requirement in [
            "func warmUp() async -> Bool",
            "func validate(_ name: String) throws(StoreError) -> String",
            "func transform(_ names: [String], _ body: (String) throws -> String) rethrows -> [String]",
            "func decode<T: Decodable & Sendable>(_ type: T.Type, json: String, _ tx: DBReadTransaction) throws -> T where T: Equatable",
            "func normalize(_ name: inout String, _ tx: DBReadTransaction) throws",
            "func summary(_ tx: DBReadTransaction) throws -> any CustomStringConvertible & Sendable",
            "func insert(name: String, _ tx: DBWriteTransaction) throws -> Item",
            "func touchCount(_ tx: DBReadTransaction) throws -> Int",
            "var limit: Int { get nonmutating set }",
            "var name: String { get }",
            "func names(limit: Int, _ tx: DBReadTransaction) throws -> [String]",
        ] {
            #expect(shim.contents.contains(requirement), "missing: \(requirement)")
        }
        let counters = try #require(files.first { $0.path.hasSuffix("ItemManager_CountersShim.swift") })
        #expect(counters.contents.contains("func next(_ key: String, _ tx: DBWriteTransaction) throws -> Int64"))
        #expect(counters.contents.contains("var prefix: String { get nonmutating set }"))
    }

    @Test func theMessagingExampleIsCurrent() throws {
        let (files, differences) = try Self.regenerate(root: RepositoryPaths.example)
        #expect(differences.isEmpty, "\(differences.map(\.description).joined(separator: "\n"))")
        #expect(files.count == 21)
    }

    @Test func generationIsDeterministic() throws {
        let root = RepositoryPaths.fixtures + "/Generator"
        let first = try Self.regenerate(root: root).files
        let second = try Self.regenerate(root: root).files
        #expect(first == second)
    }
}
#endif
