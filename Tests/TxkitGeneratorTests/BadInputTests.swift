#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// Input the generator cannot trust gets a clear error with the place, and
/// nothing is written; input it can follow after all is followed.
@Suite("Bad input")
struct BadInputTests {
    static let legacy = """
        struct LegacyTransaction {}
        final class Legacy {
            init() {}
            func find(id: Int, transaction: LegacyTransaction) -> Int? { nil }
        }
        """

    @Test func twoTypesOfOneNameInTwoModulesAreRefusedWithBothPlaces() throws {
        let tree = try InlineTree([
            ("Sources/Old/Legacy.swift", Self.legacy),
            ("Sources/New/Legacy.swift", "final class Legacy {}"),
            ("Sources/Old/Consumer.swift", """
                final class C {
                    let legacy = Legacy()
                    func run(_ tx: LegacyTransaction) { _ = legacy.find(id: 1, transaction: tx) }
                }
                """),
        ])
        #expect(throws: GeneratorError.ambiguousType(
            "Legacy", locations: [
                SourceLocation(path: "Sources/Old/Legacy.swift", line: 2), SourceLocation(path: "Sources/New/Legacy.swift", line: 1),
            ])) {
            try tree.generator.shim(consumer: "C", legacy: "Legacy").files
        }
    }

    @Test func oneTypeDeclaredInTwoIfBranchesOfOneModuleIsOneType() throws {
        let tree = try InlineTree([("Sources/App/Legacy.swift", """
            struct LegacyTransaction {}
            #if DEBUG
            final class Legacy {
                func find(id: Int, transaction: LegacyTransaction) -> Int? { nil }
            }
            #else
            final class Legacy {
                func find(id: Int, transaction: LegacyTransaction) -> Int? { nil }
            }
            #endif
            final class C {
                func run(_ legacy: Legacy, _ tx: LegacyTransaction) { _ = legacy.find(id: 1, transaction: tx) }
            }
            """)])
        #expect(try tree.requirements("C", "Legacy") == ["func find(id: Int, _ tx: DBReadTransaction) throws -> Int?"])
    }

    @Test func aTypeAliasIsFollowedAndApplyRefusesWithThePlace() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy + "\ntypealias Store = Legacy\n"), ("Consumer.swift", """
            final class C {
                let store: Store = Store()
                func run(_ tx: LegacyTransaction) { _ = store.find(id: 1, transaction: tx) }
            }
            """)])
        #expect(try tree.requirements("C", "Legacy") == ["func find(id: Int, _ tx: DBReadTransaction) throws -> Int?"])
        let error = #expect(throws: GeneratorError.self) { try tree.generator.shim(consumer: "C", legacy: "Legacy").edits.get() }
        #expect(try #require(error).description.contains("Consumer.swift:3:"))
    }

    @Test func aLegacyTypeUsedOnlyThroughAGenericParameterIsRefusedWithThePlace() throws {
        let tree = try InlineTree([("Legacy.swift", Self.legacy), ("Consumer.swift", """
            final class C<Finder: Legacy> {
                let finder: Finder
                init(finder: Finder) { self.finder = finder }
                func run(_ tx: LegacyTransaction) { _ = finder.find(id: 1, transaction: tx) }
            }
            """)])
        let error = #expect(throws: GeneratorError.self) { try tree.generator.shim(consumer: "C", legacy: "Legacy").files }
        guard let refusal = error?.refusals.first, refusal.kind == .unresolvedReference else {
            Issue.record("expected unresolvedReference, got \(String(describing: error))")
            return
        }
        #expect(refusal.location == SourceLocation(path: "Consumer.swift", line: 1))
        #expect(refusal.reason.contains("<Finder: Legacy>"))
    }

    @Test func objcAndDynamicMembersAreShimmedWithoutTheirObjectiveCAttributes() throws {
        let tree = try InlineTree([("Legacy.swift", """
            import Foundation
            struct LegacyTransaction {}
            final class Legacy: NSObject {
                @objc dynamic var name: String = ""
                @objc(findWithID:transaction:) dynamic func find(id: Int, transaction: LegacyTransaction) -> Int { 0 }
            }
            """), ("Consumer.swift", """
            final class C {
                let legacy = Legacy()
                func run(_ tx: LegacyTransaction) {
                    _ = legacy.find(id: 1, transaction: tx)
                    _ = legacy.name
                }
            }
            """)])
        #expect(try tree.requirements("C", "Legacy") == [
            "var name: String { get }",
            "func find(id: Int, _ tx: DBReadTransaction) throws -> Int",
        ])
        let shim = try tree.shim("C", "Legacy")
        #expect(!shim.contains("@objc"))
        #expect(!shim.contains("dynamic"))
    }

    @Test func aFileThatDoesNotParseStopsTheRunBeforeAnythingIsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-bad-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/Sources", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.legacy.write(toFile: folder + "/Sources/Legacy.swift", atomically: true, encoding: .utf8)
        try "final class C {\n    func run( {\n}\n".write(toFile: folder + "/Sources/C.swift", atomically: true, encoding: .utf8)
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
        let error = #expect(throws: GeneratorError.self) {
            try Generator(root: folder, configuration: .defaults).shim(consumer: "C", legacy: "Legacy").files
        }
        let message = try #require(error).description
        #expect(message.contains("/Sources/C.swift:2:"))
        #expect(message.contains("nothing was written"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder).sorted() == before)
    }

    /// txkit's own output is parsed on every core before it is written; a
    /// text that does not parse is reported, the first of them in the
    /// files' order whichever core finished first, and nothing is written.
    @Test func aGeneratedTextThatDoesNotParseIsReportedFirstInOrderAndNothingIsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-bad-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken: Set = [37, 5, 61]
        let files = (0..<64).map { number in
            GeneratedFile(
                path: "Generated/F\(number).swift",
                contents: broken.contains(number) ? "struct S\(number) {\n" : "struct S\(number) {}\n")
        }
        for _ in 0..<5 {
            let error = #expect(throws: GeneratorError.self) { try FileChangeSet(root: folder, files: files, edits: []) }
            guard case .unparsableResult(let path, let diagnostics)? = error else {
                Issue.record("expected unparsableResult, got \(String(describing: error))")
                return
            }
            #expect(path == "Generated/F5.swift")
            #expect(!diagnostics.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
#endif
