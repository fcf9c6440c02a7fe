#if Txkit
import Foundation
import Testing
@testable import TxkitGenerator

/// A consumer scanned once for several legacy types (the inventory's scan,
/// `shim --all`'s) gives each pair what a scan for that type alone gives.
@Suite("consumer scans shared by pairs")
struct ConsumerScanCacheTests {
    static let sources: [(path: String, text: String)] = [
        (path: "/a/Legacy.swift", text: """
            final class LegacyTransaction {}
            final class Note {
                func title(_ tx: LegacyTransaction) -> String { "" }
            }
            final class Repo {
                func count(_ tx: LegacyTransaction) -> Int { 0 }
            }
            """),
        (path: "/a/Board.swift", text: """
            final class Board {
                let repo: Repo
                let note: Note
                var pinned: [Note] = []
                init(repo: Repo, note: Note) {
                    self.repo = repo
                    self.note = note
                }
                func summary(_ tx: LegacyTransaction) -> String {
                    "\\(repo.count(tx)) \\(note.title(tx)) \\(Note().title(tx))"
                }
            }
            """),
    ]

    let index: SourceIndex
    let configuration: GeneratorConfiguration

    init() throws {
        index = SourceIndex(try SourceSet(sources: Self.sources))
        var configuration = GeneratorConfiguration.defaults
        configuration.legacyTransactions = [
            .init(type: "LegacyTransaction", transaction: .read, bridge: "LegacyTransaction(try SQLiteDB.shimOnlyBridge($tx))"),
        ]
        self.configuration = configuration
    }

    /// Each use and reference, as a line to compare.
    static func lines(_ scan: ConsumerScan) -> [String] {
        scan.uses.map { "\($0.legacyType) \($0.memberName) \($0.base) \($0.location) \($0.text)" }
            + scan.unresolved.map { "unresolved \($0.legacyType) \($0.location) \($0.text)" }
    }

    func scan(for legacyTypes: Set<String>) throws -> ConsumerScan {
        ConsumerScan(
            consumer: try #require(index.types["Board"]), legacyTypes: legacyTypes, index: index,
            isLegacyTransaction: configuration.isLegacyTransaction)
    }

    @Test(arguments: ["Note", "Repo"])
    func aScanForSeveralTypesRestrictedToOneIsTheScanForThatType(legacy: String) throws {
        let alone = try scan(for: [legacy])
        #expect(!alone.uses.isEmpty)
        #expect(Self.lines(try scan(for: ["Note", "Repo"]).restricted(to: legacy)) == Self.lines(alone))
    }

    /// A reference the scan does not follow (`[Note]`) is its type's alone.
    @Test func anUnfollowedReferenceIsListedUnderItsTypeOnly() throws {
        let references = try scan(for: ["Note", "Repo"]).unresolved
        #expect(references.map(\.legacyType) == ["Note"])
        #expect(references.map(\.text) == ["var pinned: [Note] = []"])
        #expect(try scan(for: ["Note", "Repo"]).restricted(to: "Repo").unresolved.isEmpty)
    }

    @Test func thePlanOfAPairReadsTheScanKeptForItsConsumer() throws {
        let board = try #require(index.types["Board"])
        index.consumerScans.prepare(board, for: ["Note", "Repo"], index: index, configuration: configuration)
        let kept = index.consumerScans.scan(of: board, for: "Note", index: index, configuration: configuration)
        #expect(Set(kept.uses.map(\.legacyType)) == ["Note"])
        #expect(Self.lines(kept) == Self.lines(try scan(for: ["Note"])))
    }

    /// `shim --all` of a consumer's two pairs writes what shimming each
    /// pair on its own does.
    @Test func shimmingPairsTogetherWritesWhatEachPairAloneDoes() throws {
        let together = try Generator(configuration: configuration, sources: SourceSet(sources: Self.sources))
            .shim(pairs: [("Board", "Note"), ("Board", "Repo")])
        var alone: [GeneratedFile] = []
        for legacy in ["Note", "Repo"] {
            let generator = try Generator(configuration: configuration, sources: SourceSet(sources: Self.sources))
            alone += try generator.shim(pairs: [("Board", legacy)])
        }
        let paths = Set(together.map(\.path))
        #expect(paths.count == 8)
        // Below the marker line, which names the command.
        let body = { (file: GeneratedFile?) in file?.contents.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() }
        // The namespaces (`Board+Shortcuts.swift`, `Board+Mocks.swift`) list
        // the pairs generated together.
        for file in alone where !file.path.hasSuffix("+Shortcuts.swift") && !file.path.hasSuffix("+Mocks.swift") {
            #expect(body(together.first { $0.path == file.path }) == body(file), "\(file.path)")
        }
    }
}
#endif
