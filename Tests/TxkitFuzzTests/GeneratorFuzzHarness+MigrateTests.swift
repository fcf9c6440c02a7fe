#if Txkit
import Foundation

/// The migrate oracle's MockDB tests: per method of a migrated consumer or
/// service, a Swift Testing test that constructs it through its migrated
/// initializer with `MockDB()` and its generated mocks (`C.Mocks.Database`,
/// the pair mocks), stubs every member of those mocks with a value the
/// grammar knows how to build, calls the method (in a `MockDB` transaction
/// when it takes one) and expects it to return, having called the mocks
/// (a method whose steps are all the app's completion hook reaches no
/// data: having committed a transaction on the `MockDB`), without a
/// misuse: a `MockDB` transaction reaching `shimOnlyBridge`, an unstubbed
/// mock, an escaped or nested transaction record a failure.
///
/// The tests are written from the migrated sources (the initializer, the
/// methods' parameters, the mocks' members), not from the program's model.
extension FuzzHarness {
    func migrateTestPath(_ program: FuzzProgram) -> String { "Tests/\(program.module)_MigrateTests.swift" }

    /// A test per method of every consumer and service of `program`, or
    /// why none is written.
    func migrateTests(of program: FuzzProgram, outcomes: [String: MigrationOutcome]) -> [MockTest] {
        let base = root(of: program)
        var tests: [MockTest] = []
        let methods = program.consumers.map { ($0.name, $0.methods.map(\.name)) }
            + program.services.map { ($0.name, $0.methods.map(\.name)) }
        // A service method whose steps are all the app's completion hook
        // opens a transaction and reaches no data: no mock to call. (One
        // with no steps, whose block hands rows out, reads them.)
        let dataless = Set(program.services.flatMap { service in
            service.methods.filter { !$0.steps.isEmpty && $0.steps.allSatisfy { $0 == .completion } }
                .map { "\(service.name).\($0.name)" }
        })
        for (type, names) in methods {
            let source = (try? String(contentsOfFile: "\(base)/Sources/App/\(type).swift", encoding: .utf8)) ?? ""
            for method in names {
                var test = MockTest(consumer: type, method: method, name: "\(program.module)_\(type)_\(method)")
                switch outcomes[type] {
                case nil:
                    test.skipped = "migrate failed"
                case let .refused(causes)?:
                    test.skipped = "refused: " + (causes.first ?? "")
                case .migrated?, .already?:
                    switch migrateTestBody(
                        program: program, type: type, method: method, source: source,
                        reachesData: !dataless.contains("\(type).\(method)")
                    ) {
                    case let .success(body): test.body = body
                    case let .failure(reason): test.skipped = reason.message
                    }
                }
                tests.append(test)
            }
        }
        return tests
    }

    /// The body of one method's test, or why it cannot be written.
    /// A method that `reachesData` must call a mock; one that does not
    /// (it only opens a transaction) must commit one on the `MockDB`.
    func migrateTestBody(
        program: FuzzProgram, type: String, method: String, source: String, reachesData: Bool = true
    ) -> Result<String, FuzzHarnessError> {
        guard let initializer = Self.parameters(after: "init(", in: source) else {
            return .failure(FuzzHarnessError(message: "no initializer"))
        }
        guard let methodParameters = Self.parameters(after: "func \(method)(", in: source) else {
            return .failure(FuzzHarnessError(message: "method not found"))
        }
        var lines = ["let db = MockDB()"]
        var mocks: [(legacy: String, variable: String)] = []
        var calls: [String] = []
        var transaction: String?
        func mock(_ parameterType: String) -> String? {
            guard let range = parameterType.range(of: "Shims.") else { return nil }
            var legacy = String(parameterType[range.upperBound...])
            // `Shims.Store`, `Shims.Store?`, `(any Shims.Store)?`.
            while legacy.hasSuffix("?") || legacy.hasSuffix("!") || legacy.hasSuffix(")") { legacy.removeLast() }
            if let known = mocks.first(where: { $0.legacy == legacy }) { return known.variable }
            let variable = FuzzProgram.property(legacy) + "Mock"
            mocks.append((legacy, variable))
            return variable
        }
        func argument(_ parameter: ParsedParameter, in what: String) -> Result<String?, FuzzHarnessError> {
            let label = parameter.label == "_" ? "" : parameter.label + ": "
            let type = parameter.type
            if ["any DB", "some DB", "any AsyncDB", "some AsyncDB"].contains(type) { return .success(label + "db") }
            if let variable = mock(type) { return .success(label + variable) }
            if type == "DBReadTransaction" || type == "DBWriteTransaction" {
                transaction = type
                return .success(label + "tx")
            }
            // Its default, `Dependencies.shared`, is set by the app at startup
            // from its GRDB holders: nil in a test.
            if type == "Dependencies" { return .failure(FuzzHarnessError(message: "\(what) takes the app's Dependencies")) }
            if parameter.hasDefault { return .success(nil) }
            if let value = Self.migrateStubValue(for: type, program: program) { return .success(label + value) }
            return .failure(FuzzHarnessError(message: "\(what) takes a \(type)"))
        }
        var initArguments: [String] = []
        for parameter in initializer {
            switch argument(parameter, in: "its initializer") {
            case let .success(text): if let text { initArguments.append(text) }
            case let .failure(reason): return .failure(reason)
            }
        }
        var callArguments: [String] = []
        for parameter in methodParameters {
            switch argument(parameter, in: "the method") {
            case let .success(text): if let text { callArguments.append(text) }
            case let .failure(reason): return .failure(reason)
            }
        }
        for (legacy, variable) in mocks {
            let path = "\(root(of: program))/Tests/Mocks/\(type)_\(legacy)Mock.swift"
            guard let mockSource = try? String(contentsOfFile: path, encoding: .utf8) else {
                return .failure(FuzzHarnessError(message: "no mock file \(type)_\(legacy)Mock.swift"))
            }
            lines.append("let \(variable) = \(type).Mocks.\(legacy)()")
            for (property, closures, result) in Self.mockMethods(in: mockSource) {
                guard let value = Self.migrateStubValue(for: result, program: program) else {
                    return .failure(FuzzHarnessError(message: "a mock member returns \(result)"))
                }
                // A member taking one closure that receives a value (`forEachName(tx) { names.append($0) }`)
                // calls it once, as the legacy member would for one row.
                if let closures, let argument = Self.closureArgument(closures), let passed = Self.migrateStubValue(for: argument, program: program) {
                    let tries = closures.contains(" throws") ? "try " : ""
                    lines.append("\(variable).\(property).stub { _, body in \(tries)body(\(passed)); return \(value) }")
                } else {
                    lines.append("\(variable).\(property).returns(\(value))")
                }
                calls.append("\(variable).\(property).callCount")
            }
        }
        lines.append("let consumer = \(type)(\(initArguments.joined(separator: ", ")))")
        let awaits = Self.isAsync("func \(method)(", in: source) || source.contains("actor \(type)")
        let call = "consumer.\(method)(\(callArguments.joined(separator: ", ")))"
        switch transaction {
        case let kind? where awaits:
            // An async method in MockDB's async transaction, whose block is
            // `@Sendable`: it captures the consumer.
            guard source.contains("actor \(type)") || Self.isSendable(type, in: source) else {
                return .failure(FuzzHarnessError(message: "an async method of a non-Sendable type takes a \(kind)"))
            }
            lines.append("let result = try await db.\(kind == "DBWriteTransaction" ? "write" : "read") { tx in try await \(call) }")
        case "DBWriteTransaction"?:
            lines.append("let result = try db.write { tx in try \(call) }")
        case "DBReadTransaction"?:
            lines.append("let result = try db.read { tx in try \(call) }")
        default:
            lines.append("let result = try \(awaits ? "await " : "")\(call)")
        }
        lines.append("#expect(!result.isEmpty)")
        if reachesData {
            // Every data access, after migrate, goes through the mocks.
            lines.append("#expect(\(calls.isEmpty ? "0" : calls.joined(separator: " + ")) > 0, \"no mock was called\")")
        } else if calls.isEmpty {
            lines.append("#expect(db.commitCount > 0, \"no transaction was committed\")")
        } else {
            // A method that only opens a transaction opens it on the
            // `MockDB`, or, when it called a holder's method that takes more
            // than the block (`asyncWrite(block:completion:)`, which stays
            // the holder's, through the `Database` shim), on that shim's mock:
            // its only data access is the transaction itself.
            let mockCalls = calls.joined(separator: " + ")
            lines.append("#expect(db.commitCount + \(mockCalls) > 0, \"no transaction was committed, no mock was called\")")
        }
        return .success(lines.map { "        " + $0 }.joined(separator: "\n"))
    }

    /// Whether the declaration of the class or struct `type` in `source`
    /// says it is `Sendable`.
    static func isSendable(_ type: String, in source: String) -> Bool {
        for keyword in ["class ", "struct "] {
            guard let start = source.range(of: keyword + type) else { continue }
            let declaration = source[start.upperBound...].prefix { $0 != "{" }
            if declaration.hasPrefix(":") || declaration.hasPrefix(" ") || declaration.hasPrefix("<") {
                return declaration.contains("Sendable")
            }
        }
        return false
    }

    func migrateTestFile(_ program: FuzzProgram, tests: [MockTest]) -> String {
        var text = """
            // Written by GeneratorFuzz's migrate oracle: each method of each migrated type on a MockDB and its mocks.
            import Testing
            import TransactionKit
            import TransactionKitTesting
            @testable import \(program.module)

            @Suite struct \(program.module)_MigrateTests {

            """
        for test in tests {
            guard let body = test.body else { continue }
            // A synchronous test for a synchronous method: in an async
            // function, `db.write { … }` would pick AsyncDB's overload.
            let effects = body.contains("await ") ? "async throws" : "throws"
            text += "    @Test func \(test.name)() \(effects) {\n\(body)\n    }\n\n"
        }
        return text + "}\n"
    }

    /// The mock methods of a generated mock (`let name = MockMethod<…, Result>()`,
    /// and its non-Sendable and closure-taking kinds): each property and its result type.
    /// The argument type of a closure type that takes one value and
    /// returns nothing (`(String) -> Void`, `(Item) throws -> ()`).
    static func closureArgument(_ closure: String) -> String? {
        let text = closure.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("("), let arrow = text.range(of: "->"),
              ["Void", "()"].contains(text[arrow.upperBound...].trimmingCharacters(in: .whitespaces)) else { return nil }
        let head = text[..<arrow.lowerBound].replacingOccurrences(of: "throws", with: "").trimmingCharacters(in: .whitespaces)
        guard head.hasPrefix("("), head.hasSuffix(")") else { return nil }
        let inside = String(head.dropFirst().dropLast())
        guard !inside.isEmpty, topLevelSplit(inside, separator: ",").count == 1 else { return nil }
        return inside
    }

    static func mockMethods(in source: String) -> [(property: String, closures: String?, result: String)] {
        var found: [(String, String?, String)] = []
        for line in source.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard line.hasPrefix("let ") || line.hasPrefix("package let ") || line.hasPrefix("public let ") || line.hasPrefix("internal let "),
                  let equals = line.range(of: " = "),
                  let open = line.range(of: "MockMethod", range: equals.upperBound..<line.endIndex),
                  let generic = line.range(of: "<", range: open.upperBound..<line.endIndex),
                  let close = line.range(of: ">()", options: .backwards)
            else { continue }
            let declaration = line[..<equals.lowerBound].replacingOccurrences(of: "package ", with: "")
                .replacingOccurrences(of: "public ", with: "").replacingOccurrences(of: "internal ", with: "")
            let property = String(declaration.dropFirst(4).prefix { $0 != " " && $0 != ":" })
            let generics = String(line[generic.upperBound..<close.lowerBound])
            var depth = 0
            var splits: [String.Index] = []
            for index in generics.indices {
                switch generics[index] {
                case "(", "<", "[": depth += 1
                // The `>` of a function type's `->` closes nothing.
                case ">" where index > generics.startIndex && generics[generics.index(before: index)] == "-": break
                case ")", ">", "]": depth -= 1
                case "," where depth == 0: splits.append(index)
                default: break
                }
            }
            let result = generics[(splits.last.map { generics.index(after: $0) } ?? generics.startIndex)...]
            // `MockMethodWithClosures<Arguments, Closures, Result>`: the middle one.
            let closures = line[open.upperBound...].hasPrefix("WithClosures") && splits.count == 2
                ? generics[generics.index(after: splits[0])..<splits[1]].trimmingCharacters(in: .whitespaces) : nil
            found.append((property, closures, result.trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    /// A value of `type` to stub a mock with, or nil when the grammar does
    /// not know how to build one.
    static func migrateStubValue(for type: String, program: FuzzProgram) -> String? {
        let type = type.trimmingCharacters(in: .whitespaces)
        switch type {
        case "Int", "Int32", "Int16", "Int8", "UInt": return "7"
        case "Int64": return "42"
        case "Double": return "1.5"
        case "Bool": return "true"
        case "String": return "\"mocked\""
        case "Void", "()": return "()"
        case "Item": return program.record == nil ? nil : "Item(id: 1, name: \"mocked\")"
        case "Tag": return program.record == nil ? nil : "Tag(id: 1, itemId: 1, label: \"mocked\")"
        case "TagInfo": return program.record == nil ? nil : "TagInfo(tag: Tag(id: 1, itemId: 1, label: \"mocked\"), item: Item(id: 1, name: \"mocked\"))"
        default: break
        }
        // A legacy finder passed to a method (`func m0(userFinder: UserFinder)`): the
        // method hands it to its mocked `Database` shim, which does not call it.
        if let finder = program.finders.first(where: { $0.name == type }), finder.kind != .enumOfStatics {
            return "\(type)()"
        }
        if type.hasSuffix("?") {
            return migrateStubValue(for: String(type.dropLast()), program: program)
        }
        if type.hasPrefix("Optional<"), type.hasSuffix(">") {
            return migrateStubValue(for: String(type.dropFirst("Optional<".count).dropLast()), program: program)
        }
        if type.hasPrefix("["), type.hasSuffix("]") {
            let inside = String(type.dropFirst().dropLast())
            let parts = topLevelSplit(inside, separator: ":")
            if parts.count == 2 {
                guard let key = migrateStubValue(for: parts[0], program: program),
                      let value = migrateStubValue(for: parts[1], program: program) else { return nil }
                return "[\(key): \(value)]"
            }
            return migrateStubValue(for: inside, program: program).map { "[\($0)]" }
        }
        if type.hasPrefix("Set<"), type.hasSuffix(">") {
            return migrateStubValue(for: String(type.dropFirst(4).dropLast()), program: program).map { "[\($0)]" }
        }
        if type.hasPrefix("("), type.hasSuffix(")") {
            var elements: [String] = []
            for element in topLevelSplit(String(type.dropFirst().dropLast()), separator: ",") {
                let pieces = topLevelSplit(element, separator: ":")
                let label = pieces.count == 2 ? pieces[0].trimmingCharacters(in: .whitespaces) + ": " : ""
                guard let value = migrateStubValue(for: pieces.last ?? "", program: program) else { return nil }
                elements.append(label + value)
            }
            return "(" + elements.joined(separator: ", ") + ")"
        }
        return nil
    }

    /// `text` split at `separator` outside brackets and parentheses.
    static func topLevelSplit(_ text: String, separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if character == separator && depth == 0 {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts
    }
}
#endif
