#if Txkit
import Foundation

/// The oracle's MockDB tests: after the shim rounds, a Swift Testing test
/// per consumer method constructs the migrated consumer with a `MockDB`
/// and the generated mocks (`C.Mocks.F`), stubs every mock member, calls
/// the method and expects the stubbed value, called once. Reaching
/// `SQLiteDB.shimOnlyBridge` with a MockDB transaction records a test
/// failure (under a test runner it throws, it does not trap), so a
/// consumer that still reaches a legacy finder fails its test.
///
/// The tests are written from the migrated sources themselves (the
/// consumer's initializer and methods, the mocks' members), not from the
/// program's model: they test what `shim --apply` wrote.
extension FuzzHarness {
    /// One consumer method's test, or why it is not written.
    struct MockTest {
        var consumer: String
        var method: String
        /// The test's function name (`P3_TaskManager_m0`).
        var name: String
        /// Its body, or nil with ``skipped``.
        var body: String?
        /// Why no test is written (a refused pair, a parameter a MockDB
        /// test cannot supply).
        var skipped: String?
    }

    /// A parameter as written: `label name: Type = default`.
    struct ParsedParameter {
        var label: String
        var type: String
        var hasDefault: Bool
    }

    /// A mock member: the `MockMethod` property a mock function calls.
    struct ParsedMockMember {
        /// `name(forID:_:)`.
        var signature: String
        var property: String
        var result: String
    }

    /// The test file of `program`, path relative to its folder.
    func mockTestPath(_ program: FuzzProgram) -> String { "Tests/\(program.module)_MockDBTests.swift" }

    /// The tests of every consumer method of `program` in its current
    /// (migrated) state; `applied` are the pairs `shim --apply` wrote.
    func mockTests(of program: FuzzProgram, applied: Set<String>) -> [MockTest] {
        let base = root(of: program)
        var tests: [MockTest] = []
        for consumer in program.consumers {
            let refused = program.pairs.filter { $0.consumer == consumer.name && !applied.contains("\($0.consumer)/\($0.legacy)") }
            let source = (try? String(contentsOfFile: "\(base)/Sources/App/\(consumer.name).swift", encoding: .utf8)) ?? ""
            for method in consumer.methods {
                var test = MockTest(consumer: consumer.name, method: method.name,
                                    name: "\(program.module)_\(consumer.name)_\(method.name)")
                if !refused.isEmpty {
                    test.skipped = "a pair of the consumer was refused"
                } else {
                    switch mockTestBody(program: program, consumer: consumer.name, method: method, source: source) {
                    case let .success(body): test.body = body
                    case let .failure(reason): test.skipped = reason.message
                    }
                }
                tests.append(test)
            }
        }
        return tests
    }

    /// The body of the test of `method`, or why a MockDB test cannot call it.
    func mockTestBody(
        program: FuzzProgram, consumer: String, method: FuzzProgram.Method, source: String
    ) -> Result<String, FuzzHarnessError> {
        guard let initializer = Self.parameters(after: "init(", in: source),
              let methodParameters = Self.parameters(after: "func \(method.name)(", in: source)
        else { return .failure(FuzzHarnessError(message: "initializer or method not found")) }
        let shimPrefix = "\(consumer).Shims."
        var lines: [String] = ["let db = MockDB()"]
        var mocks: [String: String] = [:] // legacy → variable
        /// The argument for `parameter`, nil for a defaulted one, or the
        /// type no MockDB test can supply.
        func argument(_ parameter: ParsedParameter) -> Result<String?, FuzzHarnessError> {
            let type = parameter.type
            let label = parameter.label == "_" ? "" : parameter.label + ": "
            if ["any DB", "some DB", "any AsyncDB", "some AsyncDB"].contains(type) { return .success(label + "db") }
            if type.hasPrefix(shimPrefix) {
                // An optional shim (`var store: C.Shims.F?` retyped) takes the mock as is.
                var legacy = String(type.dropFirst(shimPrefix.count))
                if legacy.hasSuffix("?") { legacy.removeLast() }
                let variable = FuzzProgram.property(legacy) + "Mock"
                mocks[legacy] = variable
                return .success(label + variable)
            }
            if parameter.hasDefault { return .success(nil) }
            return .failure(FuzzHarnessError(message: type))
        }
        var initArguments: [String] = []
        for parameter in initializer {
            switch argument(parameter) {
            case let .success(text): if let text { initArguments.append(text) }
            case let .failure(type): return .failure(FuzzHarnessError(message: "its initializer takes a \(type.message)"))
            }
        }
        var callArguments: [String] = []
        for parameter in methodParameters {
            switch argument(parameter) {
            case let .success(text): if let text { callArguments.append(text) }
            case let .failure(type): return .failure(FuzzHarnessError(message: "the method takes a \(type.message)"))
            }
        }
        let finder = program.finders[method.finder]
        let called = Self.signature(of: finder.members[method.member].operation)
        var expectations: [String] = []
        for (legacy, variable) in mocks.sorted(by: { $0.key < $1.key }) {
            let mockPath = "\(root(of: program))/Tests/Mocks/\(consumer)_\(legacy)Mock.swift"
            guard let mockSource = try? String(contentsOfFile: mockPath, encoding: .utf8) else {
                return .failure(FuzzHarnessError(message: "no mock file \(consumer)_\(legacy)Mock.swift"))
            }
            lines.append("let \(variable) = \(consumer).Mocks.\(legacy)()")
            for member in Self.mockMembers(in: mockSource) {
                guard let value = Self.stubValue(for: member.result) else {
                    return .failure(FuzzHarnessError(message: "a mock member returning \(member.result)"))
                }
                lines.append("\(variable).\(member.property).returns(\(value))")
                if legacy == finder.name && member.signature == called {
                    if member.result != "Void" {
                        // Through an optional property (`store?.count(…)`) the result is optional,
                        // and so is the `label` (a String, stubbed "mocked") a method may also read.
                        let access = program.consumers.first { $0.name == consumer }?.accesses[method.finder]
                        let isOptional = access == .optional || access == .weak
                        let labelType = isOptional ? "String?" : "String"
                        let label = method.readsLabel ? "String(describing: (\"mocked\" as \(labelType))) + \" \" + " : ""
                        let type = isOptional && !member.result.hasSuffix("?") ? member.result + "?" : member.result
                        expectations.append("#expect(result == \(label)String(describing: (\(value) as \(type))))")
                    }
                    expectations.append("#expect(\(variable).\(member.property).callCount == 1)")
                }
            }
        }
        if expectations.isEmpty {
            // No mock reaches the finder the method calls: the test still
            // runs the method, and fails if it reaches shimOnlyBridge.
            expectations.append("#expect(!result.isEmpty)")
        }
        lines.append("let consumer = \(consumer)(\(initArguments.joined(separator: ", ")))")
        let awaits = Self.isAsync("func \(method.name)(", in: source) ? "await " : ""
        lines.append("let result = try \(awaits)consumer.\(method.name)(\(callArguments.joined(separator: ", ")))")
        lines += expectations
        return .success(lines.map { "        " + $0 }.joined(separator: "\n"))
    }

    /// The Swift Testing file of `tests`.
    func mockTestFile(_ program: FuzzProgram, tests: [MockTest]) -> String {
        var text = """
            // Written by GeneratorFuzz's oracle: each consumer method on a MockDB and the generated mocks.
            import Testing
            import TransactionKit
            import TransactionKitTesting
            @testable import \(program.module)

            @Suite struct \(program.module)_MockDBTests {

            """
        for test in tests {
            guard let body = test.body else { continue }
            text += "    @Test func \(test.name)() async throws {\n\(body)\n    }\n\n"
        }
        return text + "}\n"
    }

    // MARK: Reading the migrated sources

    /// The parameters of the first declaration that starts with `opening`
    /// (`init(`, `func m0(`).
    static func parameters(after opening: String, in source: String) -> [ParsedParameter]? {
        guard let start = source.range(of: opening) else { return nil }
        var depth = 1
        var current = ""
        var pieces: [String] = []
        for character in source[start.upperBound...] {
            if character == "(" || character == "[" || character == "<" { depth += 1 }
            if character == ")" || character == "]" || character == ">" { depth -= 1 }
            if depth == 0 { break }
            if character == "," && depth == 1 {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces.compactMap { piece in
            let text = piece.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, let colon = text.firstIndex(of: ":") else { return nil }
            let names = text[..<colon].split(separator: " ")
            var type = String(text[text.index(after: colon)...])
            var hasDefault = false
            if let equals = type.range(of: " = ") {
                type = String(type[..<equals.lowerBound])
                hasDefault = true
            }
            return ParsedParameter(
                label: String(names.first ?? ""), type: type.trimmingCharacters(in: .whitespaces), hasDefault: hasDefault)
        }
    }

    /// Whether the first declaration that starts with `opening` is `async`
    /// (between its parameters and its body).
    static func isAsync(_ opening: String, in source: String) -> Bool {
        guard let start = source.range(of: opening) else { return false }
        let declaration = source[start.upperBound...].prefix { $0 != "{" }
        return declaration.contains(") async")
    }

    /// The members of a generated mock: each function's signature, the
    /// `MockMethod` it calls and its result type.
    static func mockMembers(in source: String) -> [ParsedMockMember] {
        let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var results: [String: String] = [:]
        // `MockMethod<…>()`, or a variant that passes closures
        // (`MockMethodWithClosures<Arguments, Closures, Result>()`).
        for line in lines where line.hasPrefix("let ") && (line.contains("= MockMethod<") || line.contains("= MockMethodWithClosures<")) {
            let property = String(line.dropFirst(4).prefix { $0 != " " && $0 != ":" })
            guard let open = line.range(of: "<"), let close = line.range(of: ">()", options: .backwards) else { continue }
            let generics = String(line[open.upperBound..<close.lowerBound])
            // The result is after the last top-level comma.
            var depth = 0, split = generics.startIndex
            for index in generics.indices {
                switch generics[index] {
                case "(", "<", "[": depth += 1
                case ">" where index > generics.startIndex && generics[generics.index(before: index)] == "-": break
                case ")", ">", "]": depth -= 1
                case "," where depth == 0: split = generics.index(after: index)
                default: break
                }
            }
            results[property] = generics[split...].trimmingCharacters(in: .whitespaces)
        }
        var members: [ParsedMockMember] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("func ") {
            guard let parameters = parameters(after: "(", in: String(line.dropFirst(5))),
                  index + 1 < lines.count else { continue }
            let name = String(line.dropFirst(5).prefix { $0 != "(" && $0 != "<" })
            let signature = name + "(" + parameters.map { $0.label + ":" }.joined() + ")"
            // The call is the body's first line, or its third under
            // `withoutActuallyEscaping` for a closure argument.
            guard let call = lines[(index + 1)..<min(index + 4, lines.count)].first(where: { $0.contains(".call(") }),
                  let range = call.range(of: ".call(") else { continue }
            let property = String(call[..<range.lowerBound].split(separator: " ").last ?? "")
            if let result = results[property] {
                members.append(ParsedMockMember(signature: signature, property: property, result: result))
            }
        }
        // Properties (`var label: String { getLabel.callWithoutThrowing(in: self) }`)
        // are stubbed too; their signature is their MockMethod's name.
        for (property, result) in results.sorted(by: { $0.key < $1.key })
        where !members.contains(where: { $0.property == property }) {
            members.append(ParsedMockMember(signature: property, property: property, result: result))
        }
        return members
    }

    /// The signature of the finder member an operation calls, as
    /// ``mockMembers(in:)`` spells it (the transaction is unlabeled).
    static func signature(of operation: FuzzProgram.Operation) -> String {
        switch operation {
        case .name: "name(id:_:)"
        case .nameForID: "name(forID:_:)"
        case .count: "count(_:)"
        case .countPrefix: "count(prefix:_:)"
        case .insert: "insert(name:_:)"
        case .forEachName: "forEachName(_:_:)"
        case .value: "value(id:as:_:)"
        }
    }

    /// A value to stub a member returning `type` with, distinct per type.
    static func stubValue(for type: String) -> String? {
        switch type {
        case "Int": "7"
        case "Int64": "42"
        case "String", "String?": "\"mocked\""
        case "Void": "()"
        default: nil
        }
    }

    // MARK: Running

    /// Writes the MockDB tests of `live` programs (`applied`: the pairs
    /// applied per program), builds them, runs them once for all programs,
    /// counts passes and records `.mockTest` failures; then removes them.
    func runMockTests(_ live: [FuzzProgram], applied: [String: Set<String>], report: inout Report) throws {
        var written: [FuzzProgram] = []
        var tests: [String: (program: FuzzProgram, test: MockTest)] = [:]
        for program in live {
            let programTests = mockTests(of: program, applied: applied[program.module] ?? [])
            for test in programTests {
                if let skipped = test.skipped {
                    report.mockTestsSkipped[skipped, default: 0] += 1
                } else {
                    tests[test.name] = (program, test)
                }
            }
            if programTests.contains(where: { $0.body != nil }) {
                try Self.write(mockTestFile(program, tests: programTests), to: root(of: program) + "/" + mockTestPath(program))
                written.append(program)
            }
        }
        defer {
            for program in written {
                try? FileManager.default.removeItem(atPath: root(of: program) + "/" + mockTestPath(program))
            }
        }
        guard !written.isEmpty else { return }
        var outcome = try build()
        var unbuilt: Set<String> = []
        while !outcome.succeeded {
            let named = Self.programsNamed(in: outcome, among: written.filter { !unbuilt.contains($0.module) })
            guard !named.isEmpty else {
                throw FuzzHarnessError(message: "the MockDB tests do not build: \(outcome.failureSummary(limit: 10))")
            }
            for (module, errors) in named {
                unbuilt.insert(module)
                try? FileManager.default.removeItem(atPath: "\(scratch)/Programs/\(module)/Tests/\(module)_MockDBTests.swift")
                for (_, entry) in tests where entry.program.module == module {
                    report.failures.append(Failure(
                        kind: .mockTest, program: entry.program, pair: (entry.test.consumer, entry.test.method),
                        detail: "the test does not build:\n" + errors.joined(separator: "\n")))
                }
            }
            outcome = try build()
        }
        let (results, output) = try runTests()
        for (name, entry) in tests.sorted(by: { $0.key < $1.key }) where !unbuilt.contains(entry.program.module) {
            switch results[name] {
            case .some(nil):
                report.mockTestsPassed += 1
            case let .some(issues?):
                report.failures.append(Failure(
                    kind: .mockTest, program: entry.program, pair: (entry.test.consumer, entry.test.method), detail: issues))
            case nil:
                report.failures.append(Failure(
                    kind: .mockTest, program: entry.program, pair: (entry.test.consumer, entry.test.method),
                    detail: "no result: " + ((results["(test process)"] ?? nil) ?? String(output.suffix(1500)))))
            }
        }
    }

    /// The outcome of the scratch package's tests: per test name, nil when
    /// it passed, else its issues.
    /// Runs the scratch package's tests (those matching `filter` when given,
    /// one at a time, so that a trap leaves the others not started rather
    /// than running): each test's issues by name (`nil` when it passed),
    /// and the output.
    func runTests(filter: String? = nil) throws -> (results: [String: String?], output: String) {
        try clock.measure(.mockTests) { try runScratchTests(filter: filter) }
    }

    private func runScratchTests(filter: String?) throws -> (results: [String: String?], output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "test", "--skip-build", "--package-path", scratch] + (filter.map { ["--filter", $0, "--no-parallel"] } ?? [])
        // A test that traps prints its fatal error; the backtracer would
        // outlive it holding the pipe open, and this read would never end.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        var results: [String: String?] = [:]
        for line in output.split(separator: "\n").map(String.init) {
            // Swift Testing: `✔ Test name() passed after …`, `✘ Test name() recorded an issue at …`.
            guard let start = line.range(of: "Test "), let end = line.range(of: "()", range: start.upperBound..<line.endIndex)
            else { continue }
            let name = String(line[start.upperBound..<end.lowerBound])
            if line.contains("✔") && line.contains(" passed") {
                if results[name] == nil { results[name] = .some(nil) }
            } else if line.contains("✘") {
                let previous = (results[name] ?? nil) ?? ""
                results[name] = .some(previous + (previous.isEmpty ? "" : "\n") + line)
            }
        }
        // A run that passed as a whole passed each test it started, also
        // one whose own line another test's output broke up (the tests run
        // in parallel; 1 "no result" in 2,000 programs of seed 20261128400).
        let runPassed = output.split(separator: "\n").contains { $0.contains("Test run with") && $0.contains(" passed after") }
        if process.terminationStatus == 0, runPassed {
            for name in Self.startedTests(in: output) where results[name] == nil {
                results[name] = .some(nil)
            }
        }
        // A trap ends the process: the tests started and not finished were
        // running then (one of them trapped); the others never ran.
        if process.terminationStatus != 0 {
            for name in Self.startedTests(in: output) {
                if results[name] == nil {
                    results[name] = .some("\(Self.trapPrefix) (exit status \(process.terminationStatus)):\n"
                        + output.suffix(1500))
                }
            }
        }
        if process.terminationStatus != 0 && !results.values.contains(where: { $0 != nil }) {
            results["(test process)"] = .some("exit status \(process.terminationStatus):\n" + output.suffix(2000))
        }
        return (results, output)
    }

    /// The tests a Swift Testing run started (`◇ Test name() started.`).
    static func startedTests(in output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard line.contains("◇ Test "), line.contains(" started"), let start = line.range(of: "Test "),
                  let end = line.range(of: "()", range: start.upperBound..<line.endIndex)
            else { return nil }
            return String(line[start.upperBound..<end.lowerBound])
        }
    }
}
#endif
