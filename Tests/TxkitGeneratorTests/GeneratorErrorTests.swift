#if Txkit
import Foundation
import Testing
import TxkitGenerator

/// Bad input gets a clear error, and nothing is written.
@Suite("Generator errors")
struct GeneratorErrorTests {
    static let legacy = """
        struct LegacyTransaction {}
        final class Finder: Sendable {
            init() {}
            func find(id: Int64, transaction: LegacyTransaction) throws -> String? { nil }
            func find(id: Int64, limit: Int = 1, transaction: LegacyTransaction) throws -> String? { nil }
            func log(_ items: String..., transaction: LegacyTransaction) {}
        }
        """

    static func generator(_ consumer: String) throws -> Generator {
        try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [("Legacy.swift", legacy), ("Consumer.swift", consumer)]))
    }

    @Test func aFileThatDoesNotParseIsShownWhere() throws {
        let error = #expect(throws: GeneratorError.self) {
            try SourceSet(sources: [("Broken.swift", "struct A {\n    func f( {\n}\n")])
        }
        let message = try #require(error).description
        #expect(message.contains("Broken.swift:2:"))
        #expect(message.contains("does not parse; nothing was written"))
    }

    @Test func anUnknownTypeNamesWhereItLooked() throws {
        let generator = try Self.generator("final class C { let f = Finder() }")
        #expect(throws: GeneratorError.typeNotFound("Nope", searched: ["Legacy.swift", "Consumer.swift"])) {
            try generator.shim(consumer: "C", legacy: "Nope").files
        }
    }

    @Test func aConsumerThatDoesNotUseTheTypeIsRefused() throws {
        let generator = try Self.generator("final class C { func f() {} }")
        #expect(throws: GeneratorError.unusedType(consumer: "C", legacy: "Finder")) {
            try generator.shim(consumer: "C", legacy: "Finder").files
        }
    }

    /// Found on WooCommerce's `ProductStore`: a self-pair was refused as a
    /// use of a member the type does not declare.
    @Test func aTypeShimmedForItselfIsRefusedAsSuch() throws {
        let generator = try Self.generator("final class C { func f() {} }")
        let error = #expect(throws: GeneratorError.self) {
            try generator.shim(consumer: "Finder", legacy: "Finder").files
        }
        let message = try #require(error).description
        #expect(error?.location == SourceLocation(path: "Legacy.swift", line: 2), "\(message)")
        #expect(message.contains("Finder is both the consumer and the legacy type"))
        #expect(message.contains("txkit convert --legacy Finder"))
    }

    @Test func anAmbiguousOverloadListsTheCandidates() throws {
        // Both overloads fit `find(id:limit:)` only through labels the call
        // does not give, each leaving one default out: Swift calls this
        // ambiguous too. (`find(id:transaction:)` alone would win: it
        // leaves no default out.)
        let generator = try Generator(
            configuration: .defaults,
            sources: SourceSet(sources: [("Legacy.swift", """
                struct LegacyTransaction {}
                final class Finder: Sendable {
                    init() {}
                    func find(id: Int64, limit: Int = 1, transaction: LegacyTransaction) throws -> String? { nil }
                    func find(id: Int64, offset: Int = 0, transaction: LegacyTransaction) throws -> String? { nil }
                }
                """), ("Consumer.swift", """
                final class C {
                    let finder = Finder()
                    func f(_ legacy: LegacyTransaction) throws { _ = try finder.find(id: 1, transaction: legacy) }
                }
                """)]))
        let error = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "C", legacy: "Finder").files }
        let message = try #require(error).description
        #expect(message.contains("Consumer.swift:3: finder.find(id: 1, transaction: legacy) matches several members"))
        #expect(message.contains("Finder.find(id:limit:transaction:) at Legacy.swift:4"))
        #expect(message.contains("Finder.find(id:offset:transaction:) at Legacy.swift:5"))
    }

    @Test func aVariadicMemberIsRefusedWithTheWayOut() throws {
        let generator = try Self.generator("""
            final class C {
                let finder = Finder()
                func f(_ legacy: LegacyTransaction) { finder.log("a", "b", transaction: legacy) }
            }
            """)
        let error = #expect(throws: GeneratorError.self) { try generator.shim(consumer: "C", legacy: "Finder").files }
        #expect(try #require(error).description.contains("add an overload taking an array"))
    }

    @Test func anUnreadablePathIsNamed() {
        #expect(throws: GeneratorError.unreadablePath("/nonexistent/txkit", reason: "no such file or folder")) {
            try SourceSet(paths: ["/nonexistent/txkit"])
        }
    }

    @Test func aHandWrittenFileIsNeverOverwritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let handWritten = "// my own shim\n"
        try handWritten.write(toFile: folder + "/A.swift", atomically: true, encoding: .utf8)
        let writer = GeneratedFileWriter(root: folder)
        let files = [
            GeneratedFile(path: "B.swift", contents: "// Generated by `txkit shim --consumer C --legacy D`.\n"),
            GeneratedFile(path: "A.swift", contents: "// Generated by `txkit shim --consumer C --legacy D`.\n"),
        ]
        #expect(throws: GeneratorError.notGenerated(path: "A.swift")) { try writer.write(files) }
        #expect(try String(contentsOfFile: folder + "/A.swift", encoding: .utf8) == handWritten)
        #expect(!FileManager.default.fileExists(atPath: folder + "/B.swift"))
    }

    @Test func checkReportsMissingAndDifferentFilesWithADiff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let marker = "// Generated by `txkit shim --consumer C --legacy D`. Do not edit: run the command again."
        try "\(marker)\nold line\nsame\n".write(toFile: folder + "/A.swift", atomically: true, encoding: .utf8)
        let differences = try GeneratedFileWriter(root: folder).check([
            GeneratedFile(path: "A.swift", contents: "\(marker)\nnew line\nsame\n"),
            GeneratedFile(path: "B.swift", contents: "\(marker)\n"),
        ])
        #expect(differences.count == 2)
        #expect(differences[0].description.contains("-old line\n+new line"))
        #expect(differences[1] == GeneratedFileWriter.Difference.missing(path: "B.swift"))
    }
}
#endif
