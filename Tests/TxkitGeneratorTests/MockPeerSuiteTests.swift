#if Txkit
import Foundation
import Testing
import TxkitGenerator
import TxkitGeneratorTestSupport

/// `txkit mock` on peers' suites: every protocol of Sourcery's AutoMockable
/// test context and of Cuckoo's test sources (Tests/Fixtures/MockPeers,
/// verbatim under their MIT licences), and our own shapes. Each mock is
/// written beside its protocols in a scratch package that depends on this
/// checkout by path; the package is compiled, and a test stubs one member
/// of each mock and calls it (ShapesTests.swift checks the shapes'
/// behaviour in more depth).
@Suite("mock peer suites", .serialized)
struct MockPeerSuiteTests {
    /// The fixture folders, each a module of the scratch package.
    static let modules = ["Sourcery", "Cuckoo", "Shapes"]

    /// Mocks that are written but do not compile, with the reason: the
    /// shapes Swift itself cannot satisfy.
    static let knownNotCompiling: [String: String] = [:]

    /// Protocols refused, by the words of the reason: the shapes Swift
    /// itself cannot mock.
    static let knownRefusals: [String: String] = [
        // subscript<T>(arg: String) -> T? where T: Cancellable and
        // subscript<T>(arg2: String) -> T: one witness matches both, so
        // Swift reports "multiple matching subscripts" for any mock.
        "Sourcery.SubscriptProtocol": "Swift cannot tell which implements which",
    ]

    /// What one run measured.
    struct Measure {
        var protocols: [String] = []
        var refused: [String: String] = [:]
        var notCompiling: [String: String] = [:]
        var exercised: [String] = []
        /// Of `exercised`, those a hand-written test of the fixture uses.
        var exercisedByHand: [String] = []
        var compiledOnly: [String] = []
        /// Protocols without requirements: their mocks compile, with nothing to call.
        var noMembers: [String] = []
    }

    @Test func everyPeerProtocolGetsAMockThatCompilesAndAnswersOrARefusalWithAReason() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("txkit-mock-peers-\(UUID().uuidString)").path
        defer {
            // TXKIT_KEEP_MOCK_PEERS=1 keeps the scratch package to look at.
            if ProcessInfo.processInfo.environment["TXKIT_KEEP_MOCK_PEERS"] == nil {
                try? FileManager.default.removeItem(atPath: root)
            } else {
                print("scratch package kept at \(root)")
            }
        }
        var measure = Measure()
        var mockFiles: [String: [String]] = [:]   // protocol → files to drop if it does not compile
        for module in Self.modules {
            let sources = "\(root)/Sources/\(module)Peers"
            let tests = "\(root)/Tests/\(module)PeersTests"
            try FileManager.default.createDirectory(atPath: sources + "/Mocks", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: tests, withIntermediateDirectories: true)
            let fixture = "\(RepositoryPaths.fixtures)/MockPeers/\(module)"
            let fixtureSources = FileManager.default.fileExists(atPath: fixture + "/Sources") ? fixture + "/Sources" : fixture
            for file in try FileManager.default.contentsOfDirectory(atPath: fixtureSources) where file.hasSuffix(".swift") {
                try FileManager.default.copyItem(atPath: "\(fixtureSources)/\(file)", toPath: "\(sources)/\(file)")
            }
            for file in (try? FileManager.default.contentsOfDirectory(atPath: fixture + "/Tests")) ?? [] {
                try FileManager.default.copyItem(atPath: "\(fixture)/Tests/\(file)", toPath: "\(tests)/\(file)")
            }
            var configuration = GeneratorConfiguration.defaults
            configuration.mocksFolder = "Mocks"
            configuration.mockImports = []
            let generator = try Generator(configuration: configuration, sources: SourceSet(paths: [sources]))
            let protocols = generator.index.typeNames.filter { name in
                guard let type = generator.index.types[name], type.kind == .protocol else { return false }
                return type.qualifiedName == name   // once, by its qualified name
            }
            let usage = ["import Testing", "import TransactionKit", "import TransactionKitTesting", "@testable import \(module)Peers", ""]
            for name in protocols {
                let key = "\(module).\(name)"
                measure.protocols.append(key)
                do {
                    let file = try generator.mock(protocol: name)
                    let path = "\(sources)/\(file.path)"
                    try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path))
                    let renderer = try generator.mockRenderer(protocol: name)
                    let test = "\(tests)/\(renderer.mockName)UsageTests.swift"
                    if let body = Self.usage(of: renderer) {
                        try Data((usage + body).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: test))
                        measure.exercised.append(key)
                        mockFiles[key] = [path, test]
                    } else if renderer.memberStubs().isEmpty {
                        measure.noMembers.append(key)
                        mockFiles[key] = [path]
                    } else if Self.handTests(module).contains(where: { Self.uses($0, mock: renderer.mockName) }) {
                        // Values no literal makes: a hand-written test of
                        // the fixture's Tests folder stubs and calls it.
                        measure.exercised.append(key)
                        measure.exercisedByHand.append(key)
                        mockFiles[key] = [path]
                    } else {
                        measure.compiledOnly.append(key)
                        mockFiles[key] = [path]
                    }
                } catch {
                    measure.refused[key] = "\(error)"
                }
            }
        }
        try Data(Self.manifest(checkout: RepositoryPaths.root).utf8)
            .write(to: URL(fileURLWithPath: root + "/Package.swift"))

        // Build; a mock that does not compile is set aside with its first
        // error, and the rest built again.
        var outcome = try await Self.swift(["build", "--build-tests"], in: root)
        var warnings = Self.mockWarnings(outcome.output)
        var rounds = 0
        while outcome.status != 0 && rounds < 8 {
            rounds += 1
            let errorLines = outcome.output.split(separator: "\n").filter { $0.contains("error:") }
            let failing = mockFiles.filter { _, files in
                files.contains { path in
                    errorLines.contains { $0.contains("/" + (path as NSString).lastPathComponent + ":") }
                }
            }
            try #require(!failing.isEmpty, "the build failed outside the mocks (set aside: \(measure.notCompiling)):\n\(outcome.output.suffix(3000))")
            for (key, files) in failing {
                let error = outcome.output.split(separator: "\n").first { line in
                    line.contains("error:") && files.contains { line.contains("/" + ($0 as NSString).lastPathComponent + ":") }
                }
                measure.notCompiling[key] = error.map(String.init) ?? "does not compile"
                for file in files { try? FileManager.default.removeItem(atPath: file) }
                mockFiles[key] = nil
                measure.exercised.removeAll { $0 == key }
                measure.compiledOnly.removeAll { $0 == key }
                measure.noMembers.removeAll { $0 == key }
            }
            outcome = try await Self.swift(["build", "--build-tests"], in: root)
            warnings += Self.mockWarnings(outcome.output)
        }
        #expect(warnings.isEmpty, "the mocks compile with warnings:\n\(warnings.joined(separator: "\n"))")
        #expect(outcome.status == 0, "\(measure.notCompiling)\n\(outcome.output.suffix(3000))")
        let run = try await Self.swift(["test", "--skip-build"], in: root)
        #expect(run.status == 0, "\(run.output.suffix(4000))")

        let report = """
            protocols: \(measure.protocols.count); mocks that compile: \(measure.exercised.count + measure.compiledOnly.count + measure.noMembers.count) \
            (\(measure.exercised.count) stubbed and called, \(measure.exercisedByHand.count) of them by a hand-written test, \
            \(measure.noMembers.count) without members, \
            \(measure.compiledOnly.count) compiled only); \
            refused: \(measure.refused.count); written but not compiling: \(measure.notCompiling.count)
            refused: \(measure.refused.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n  "))
            not compiling: \(measure.notCompiling.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n  "))
            compiled only: \(measure.compiledOnly.sorted().joined(separator: ", "))
            """
        print(report)
        let notCompiling = Set(measure.notCompiling.keys.map { String($0.split(separator: ".", maxSplits: 1)[1]) })
        #expect(notCompiling == Set(Self.knownNotCompiling.keys), "\(report)")
        #expect(Set(measure.refused.keys) == Set(Self.knownRefusals.keys), "\(report)")
        // Every mock is used by a test that stubs a member and calls it.
        #expect(measure.compiledOnly.isEmpty, "\(report)")
        for (key, words) in Self.knownRefusals {
            #expect(measure.refused[key]?.contains(words) == true, "\(key): \(measure.refused[key] ?? "not refused")")
            #expect(measure.refused[key]?.contains("AutoMockable.swift:") == true, "the refusal names the place")
        }
    }

    // MARK: Hand-written tests

    /// The texts of the fixture's own tests (`<module>/Tests`).
    static func handTests(_ module: String) -> [String] {
        let folder = "\(RepositoryPaths.fixtures)/MockPeers/\(module)/Tests"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { $0.hasSuffix(".swift") }.compactMap { try? String(contentsOfFile: "\(folder)/\($0)", encoding: .utf8) }
    }

    /// Whether `text` makes a `mock` (`MockName(` or `MockName<`).
    static func uses(_ text: String, mock: String) -> Bool {
        text.contains("\(mock)(") || text.contains("\(mock)<")
    }

    // MARK: The scratch package

    static func manifest(checkout: String) -> String {
        let package = (checkout as NSString).lastPathComponent
        let targets = modules.map { module in
            """
                    .target(name: "\(module)Peers", dependencies: deps),
                    .testTarget(name: "\(module)PeersTests", dependencies: ["\(module)Peers"] + deps),
            """
        }
        return """
            // swift-tools-version: 6.1
            import PackageDescription

            let deps: [Target.Dependency] = [
                .product(name: "TransactionKit", package: "\(package)"),
                .product(name: "TransactionKitTesting", package: "\(package)"),
            ]
            let package = Package(
                name: "MockPeers",
                platforms: [.macOS(.v15), .iOS(.v18)],
                dependencies: [.package(path: "\(checkout)")],
                targets: [
            \(targets.joined(separator: "\n"))
                ]
            )

            """
    }

    /// The compiler's warnings about the generated mocks.
    static func mockWarnings(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.contains("/Mocks/") && $0.contains("warning:") }.map(String.init)
    }

    /// `swift <arguments>` in `root`, on a thread of its own (a build takes
    /// minutes: see ``OwnThread``).
    static func swift(_ arguments: [String], in root: String) async throws -> (status: Int32, output: String) {
        try await OwnThread.run { try runSwift(arguments, in: root) }
    }

    private static func runSwift(_ arguments: [String], in root: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    // MARK: One stubbed call per mock

    /// A literal of `type`, for the simple types a call can be made of.
    static func literal(_ type: String) -> String? {
        var type = type.trimmingCharacters(in: .whitespaces)
        if type.contains("some ") { return nil }
        if type.contains("->") { return closureLiteral(&type) }
        if type.hasSuffix("?") || type.hasSuffix("!") { return "nil" }
        switch type {
        case "Int", "Int64", "Int32", "UInt", "Double", "Float": return "1"
        case "String": return "\"a\""
        case "Bool": return "true"
        case "Void", "()": return "()"
        default: break
        }
        if type.hasPrefix("["), type.hasSuffix("]"), !type.contains("(") {
            return type.contains(":") ? "[:]" : "[]"
        }
        return nil
    }

    /// `{ _, _ in }` for a closure that returns `Void`; `nil` for an
    /// optional one.
    static func closureLiteral(_ type: inout String) -> String? {
        for attribute in ["@escaping ", "@Sendable ", "@MainActor "] {
            type = type.replacingOccurrences(of: attribute, with: "")
        }
        if type.hasSuffix(")?") {
            // Optional when the first parenthesis closes just before `?`.
            var depth = 0
            for (offset, character) in type.enumerated() {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if depth == 0 { return offset == type.count - 2 ? "nil" : nil }
            }
        }
        guard type.hasSuffix("-> Void") || type.hasSuffix("-> ()"), type.first == "(" else { return nil }
        var depth = 0
        var commas = 0
        var inner = ""
        for character in type {
            if character == "(" || character == "[" || character == "<" { depth += 1 }
            if character == ")" || character == "]" || character == ">" {
                depth -= 1
                if depth == 0 { break }
            }
            if depth == 1 && character == "," { commas += 1 }
            if depth >= 1 { inner.append(character) }
        }
        if inner.dropFirst().trimmingCharacters(in: .whitespaces).isEmpty { return "{}" }
        return "{ " + Array(repeating: "_", count: commas + 1).joined(separator: ", ") + " in }"
    }

    /// A test that stubs one member of the mock and calls it, or `nil`
    /// when the mock is generic or has no member made of simple types.
    static func usage(of renderer: ProtocolMockRenderer) -> [String]? {
        let requirements = renderer.requirements
        // A generic mock is made with `Int` for associated types that
        // `Int` satisfies.
        var typeArguments = ""
        if renderer.isGeneric {
            let simple: Set<String> = ["Equatable", "Hashable", "Sendable", "Codable", "Comparable"]
            let generic = requirements.associatedTypes.filter { $0.defaultType == nil }
            guard generic.allSatisfy({ type in
                type.requirements.isEmpty && (type.constraint.map { constraint in
                    constraint.split(separator: "&").allSatisfy { simple.contains($0.trimmingCharacters(in: .whitespaces)) }
                } ?? true)
            }) else { return nil }
            typeArguments = "<" + generic.map { _ in "Int" }.joined(separator: ", ") + ">"
        }
        let associated = Set(requirements.associatedTypes.map(\.name))
        let members = renderer.memberStubs()
        // How to make the mock: `init()`, or an initializer of simple types.
        let initializers = members.map(\.requirement).filter { if case .initializer = $0.kind { true } else { false } }
        var make = "\(renderer.mockName)\(typeArguments)()"
        if let plain = initializers.first(where: { $0.parameters.isEmpty }) {
            make = (plain.throwsClause == nil ? "" : "try ") + (plain.isAsync ? "await " : "") + make
                + (plain.kind == .initializer(isFailable: true) ? "!" : "")
        } else if !initializers.isEmpty && !initializers.contains(where: { $0.parameters.isEmpty }) {
            guard let initializer = initializers.first(where: { initializer in
                initializer.genericParameters.isEmpty && initializer.parameters.allSatisfy { literal($0.type) != nil && !$0.isInout }
            }) else { return nil }
            let arguments = initializer.parameters.map { ($0.label.map { "\($0): " } ?? "") + literal($0.type)! }
            let effects = (initializer.throwsClause == nil ? "" : "try ") + (initializer.isAsync ? "await " : "")
            make = "\(effects)\(renderer.mockName)\(typeArguments)(\(arguments.joined(separator: ", ")))\(initializer.kind == .initializer(isFailable: true) ? "!" : "")"
        }
        for (requirement, getter, _, _) in members {
            if case .initializer = requirement.kind { continue }
            let mentionsAssociated = ([requirement.resultType ?? ""] + requirement.parameters.map(\.type)).contains { type in
                type.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { associated.contains(String($0)) }
            }
            guard requirement.genericParameters.isEmpty, !mentionsAssociated, !(renderer.isGeneric && requirement.isStatic),
                  requirement.parameters.allSatisfy({ literal($0.type) != nil && !$0.isVariadic && !$0.isInout }),
                  let result = literal(requirement.resultType ?? "Void") else { continue }
            let receiver = requirement.isStatic ? renderer.mockName + typeArguments : "mock"
            let arguments = requirement.parameters.map { ($0.label.map { "\($0): " } ?? "") + literal($0.type)! }
            let access: String
            switch requirement.kind {
            case .method: access = "\(receiver).\(requirement.name)(\(arguments.joined(separator: ", ")))"
            case .property: access = "\(receiver).\(requirement.name)"
            case .subscript: access = "\(receiver)[\(arguments.joined(separator: ", "))]"
            case .initializer: continue
            }
            let throwing = requirement.throwsClause.map { !$0.contains("Never") } ?? false
            let isolated = requirements.requiresActor && !requirement.isStatic
            let effects = (throwing ? "try " : "") + (requirement.isAsync || isolated ? "await " : "")
            let actor = requirements.globalActor.map { "\($0)\n" } ?? ""
            let name = "\(renderer.mockName)_\(getter.replacingOccurrences(of: "`", with: ""))"
            return [
                "\(actor)@Test func \(name)() async throws {",
                "    let mock = \(make)",
                "    _ = mock",
                "    \(receiver).\(getter).returns(\(result))",
                // The result's type picks among overloads by result.
                "    let _: \((requirement.resultType ?? "Void").replacingOccurrences(of: "!", with: "?")) = \(effects)\(access)",
                "    #expect(\(receiver).\(getter).callCount == 1)",
                "}",
                "",
            ]
        }
        return nil
    }
}
#endif
