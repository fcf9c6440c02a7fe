#if Txkit
import Foundation
import Testing
import TxkitGenerator
import TxkitGeneratorTestSupport

/// `txkit shim --apply --verify` end to end, on a scratch package built in
/// a temporary folder: a stand-in `TransactionKit` module (two classes, no
/// GRDB) and an app with a legacy finder and a consumer, so that each
/// `swift build` takes seconds.
@Suite("shim --apply --verify", .serialized)
struct VerifyTests {
    /// The scratch package, with `bridge` in its txkit.json.
    static func makePackage(bridge: String) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-verify-\(UUID().uuidString)").path
        let files = [
            "Package.swift": """
                // swift-tools-version: 5.9
                import PackageDescription

                let package = Package(
                    name: "Scratch",
                    targets: [
                        .target(name: "TransactionKit"),
                        .target(name: "App", dependencies: ["TransactionKit"]),
                    ]
                )

                """,
            "Sources/TransactionKit/Transactions.swift": """
                open class DBReadTransaction { public init() {} }
                open class DBWriteTransaction: DBReadTransaction {}

                """,
            "Sources/App/Legacy.swift": """
                import TransactionKit

                struct LegacyTransaction {
                    let transaction: DBReadTransaction
                    init(checked transaction: DBReadTransaction) { self.transaction = transaction }
                }

                final class Finder: Sendable {
                    init() {}
                    func name(id: Int, transaction: LegacyTransaction) -> String? { "name \\(id)" }
                }

                """,
            // `checked` is private to this file: a bridge that calls it
            // compiles here, not in the generated wrapper.
            "Sources/App/Consumer.swift": """
                import TransactionKit

                fileprivate func checked(_ transaction: DBReadTransaction) -> DBReadTransaction { transaction }

                final class Consumer {
                    let finder = Finder()

                    init() {}

                    func title(_ tx: DBReadTransaction) throws -> String {
                        finder.name(id: 1, transaction: LegacyTransaction(checked: checked(tx))) ?? "none"
                    }
                }

                """,
            "txkit.json": """
                {
                  "sources": ["Sources/App"],
                  "legacyTransactions": [
                    { "type": "LegacyTransaction", "transaction": "infer", "bridge": "\(bridge)" }
                  ],
                  "shimsFolder": "Sources/App/Shortcuts/$consumer",
                  "mocksFolder": "Mocks",
                  "wrapperImports": [],
                  "accessLevel": "internal"
                }

                """,
        ]
        for (path, text) in files {
            let absolute = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (absolute as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: absolute))
        }
        return root
    }

    /// The package's files (outside `.build`) and their bytes.
    static func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        for case let path as String in enumerator {
            // What the build makes, not what the user wrote.
            if path == ".build" || path == ".swiftpm" {
                enumerator.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            files[path] = isDirectory.boolValue ? Data() : FileManager.default.contents(atPath: root + "/" + path)
        }
        return files
    }

    /// What `txkit shim --consumer Consumer --legacy Finder --apply --verify`
    /// does in `root`.
    /// The build runs on a thread of its own (see ``OwnThread``).
    static func applyAndVerify(root: String, arguments: [String] = []) async throws -> [String] {
        try await OwnThread.run { try applyAndVerifyBlocking(root: root, arguments: arguments) }
    }

    private static func applyAndVerifyBlocking(root: String, arguments: [String]) throws -> [String] {
        let generator = try Generator(root: root, configuration: GeneratorConfiguration.load(from: root))
        let files = try generator.shim(consumer: "Consumer", legacy: "Finder").files
        let edits = try generator.shim(consumer: "Consumer", legacy: "Finder").edits.get()
        let changes = try FileChangeSet(root: root, files: files, edits: edits)
        return try changes.write(verifyingWith: PackageBuild(root: root, arguments: arguments))
    }

    @Test func theFirstErrorsLeaveOutTheSourceExcerptsAndRepeats() {
        let output = """
            Building for debugging...
            /p/A.swift:3:5: error: cannot find 'x' in scope
              |
            3 |     x()
              |     `- error: cannot find 'x' in scope
            /p/A.swift:3:5: error: cannot find 'x' in scope
            /p/B.swift:1:1: warning: unused
            error: fatalError
            """
        let outcome = PackageBuild.Outcome(status: 1, output: output)
        #expect(outcome.firstErrors() == ["/p/A.swift:3:5: error: cannot find 'x' in scope", "error: fatalError"])
        #expect(outcome.firstErrors(limit: 1) == ["/p/A.swift:3:5: error: cannot find 'x' in scope"])
        #expect(PackageBuild.Outcome(status: 9, output: "a\nb\nKilled").failureSummary(limit: 2) == ["b", "Killed"])
    }

    @Test func aBuildThatFailsRestoresEveryFileByteForByte() async throws {
        let root = try Self.makePackage(bridge: "LegacyTransaction(checked: checked($tx))")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = try Self.snapshot(root)

        let error = await #expect(throws: GeneratorError.self) { try await Self.applyAndVerify(root: root) }
        let failure = try #require(error)
        guard case let .buildFailed(command, errors, restored) = failure else {
            Issue.record("expected buildFailed, got \(failure)")
            return
        }
        #expect(command == "swift build")
        #expect(errors.contains { $0.contains("Consumer_FinderWrapper.swift") && $0.contains("checked") })
        #expect(errors.allSatisfy { $0.contains("error:") && !$0.contains("`- error:") })
        #expect(restored.contains("Sources/App/Shortcuts/Consumer/Consumer_FinderShim.swift"))
        #expect(restored.contains { $0.hasSuffix("Sources/App/Consumer.swift") })
        #expect(failure.description.contains("The compiler's first errors:"))
        // Generated files gone (and their new folders), the consumer as it was.
        #expect(try Self.snapshot(root) == before)
    }

    @Test func aBuildThatSucceedsKeepsTheEditAndPassesTheUsersFlags() async throws {
        let root = try Self.makePackage(bridge: "LegacyTransaction(checked: $tx)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let consumer = root + "/Sources/App/Consumer.swift"
        try Data(String(decoding: FileManager.default.contents(atPath: consumer)!, as: UTF8.self)
            .replacingOccurrences(of: "checked: checked(tx)", with: "checked: tx").utf8)
            .write(to: URL(fileURLWithPath: consumer))

        // A flag swift build rejects: proof it is passed, and a failure.
        await #expect(throws: GeneratorError.self) {
            try await Self.applyAndVerify(root: root, arguments: ["--no-such-flag"])
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/Sources/App/Shortcuts"))

        let written = try await Self.applyAndVerify(root: root, arguments: ["-Xswiftc", "-warnings-as-errors"])
        #expect(written.count == 6)
        let edited = try String(contentsOfFile: consumer, encoding: .utf8)
        // The inline value became the default of an initializer parameter.
        #expect(edited.contains("let finder: Consumer.Shims.Finder\n"))
        #expect(edited.contains("init(finder: Consumer.Shims.Finder = Consumer.Wrappers.Finder())"))
        #expect(edited.contains("try finder.name(id: 1, tx)"))
    }
}
#endif
