#if Txkit
/// The types a mock writes: generic parameters, `Sendable` checks,
/// what a stub records and what it passes on.
extension ProtocolMockRenderer {
    /// A type the mock writes inside its own body: `Self` is the mock.
    func written(_ type: String) -> String {
        replacingWord("Self", in: type, with: mockName)
    }

    func replacingWord(_ word: String, in text: String, with replacement: String) -> String {
        var result = ""
        var current = ""
        func flush() {
            result += current == word ? replacement : current
            current = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// A value's type as a stub's generic argument: `!` is `?`, attributes
    /// of parameters dropped, `Self` the mock.
    func valueType(_ type: String) -> String {
        var type = written(type)
        for attribute in ["@escaping ", "@autoclosure ", "sending ", "__owned ", "borrowing ", "consuming "] {
            type = type.replacingOccurrences(of: attribute, with: "")
        }
        return type.replacingOccurrences(of: "!", with: "?")
    }

    func words(_ type: String) -> [String] {
        type.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
    }

    /// Whether a type mentions a member's generic parameters or is opaque.
    func isGeneric(_ type: String, _ requirement: ProtocolRequirements.Requirement) -> Bool {
        let names = genericNames(requirement)
        return type.contains("some ") || words(type).contains { names.contains($0) }
    }

    /// Whether a type names the member's generic parameters (recorded by
    /// description: the stub is declared outside the member).
    func namesGenericParameters(_ type: String, _ requirement: ProtocolRequirements.Requirement) -> Bool {
        let names = genericNames(requirement)
        return words(type).contains { names.contains($0) }
    }

    func genericNames(_ requirement: ProtocolRequirements.Requirement) -> Set<String> {
        let clause = requirement.genericParameters
        guard clause.count > 2 else { return [] }
        let inner = clause.dropFirst().dropLast()
        return Set(inner.split(separator: ",").compactMap { part in
            part.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) }
                .flatMap { $0.split(separator: " ").last.map(String.init) }
        })
    }

    /// Types whose values are not `Sendable` (or not known to be), and
    /// protocols of the standard library written as existentials without
    /// `any` (`Codable`).
    private static let nonSendableWords: Set<String> = [
        "Any", "AnyObject", "AnyClass", "Self", "NSObject", "CVarArg", "AnyPublisher", "CurrentValueSubject",
        "PassthroughSubject", "Cancellable", "AnyCancellable", "DBReadTransaction", "DBWriteTransaction",
        "NSManagedObjectContext", "NSManagedObject", "OperationQueue", "DispatchQueue",
        "Codable", "Encodable", "Decodable", "CustomStringConvertible", "CustomDebugStringConvertible",
    ]

    /// Whether a value of `type` is `Sendable`, as far as the sources say:
    /// closures without `@Sendable`, `Any`, existentials that do not
    /// require `Sendable`, the mock's associated types, classes and
    /// protocols of the sources not declared `Sendable` are not; other
    /// types from other modules are assumed to be.
    func isSendable(_ type: String, seen: Set<String> = []) -> Bool {
        if type.contains("->") && !type.contains("@Sendable") { return false }
        let shape = TypeShape(parsing: type)
        guard shape.existentials.allSatisfy(existentialIsSendable) else { return false }
        for word in shape.namesOutsideExistentials {
            if Self.nonSendableWords.contains(word) || associatedNames.contains(word) || word == mockName { return false }
            if let alias = index.typealiases[word], !seen.contains(word) {
                if !isSendable(alias.type, seen: seen.union([word])) { return false }
                continue
            }
            guard let declared = index.types[word], declared.declarations.contains(where: { !$0.isExtension }) else { continue }
            let inherited = declared.inherited.map(SourceIndex.coreTypeName)
            let saysSendable = inherited.contains { $0.contains("Sendable") || $0 == "Error" || $0 == "Actor" }
            switch declared.kind {
            case .class?, .protocol?:
                if !saysSendable && !(declared.kind == .protocol && protocolIsSendable(word)) { return false }
            case .struct?, .enum?:
                if declared.accessLevel >= .public && !saysSendable { return false }
                // Implicitly `Sendable` only when what it stores is.
                if !saysSendable, !seen.contains(word),
                   ShimPlan.storedPropertyTypes(of: declared).contains(where: { !isSendable($0, seen: seen.union([word])) }) {
                    return false
                }
            default:
                continue
            }
        }
        return true
    }

    /// Whether an existential (`any P & Q`, `P & Q`) is `Sendable`: one of
    /// its parts is `Sendable` (or `Error`, `Actor`), or a protocol of the
    /// sources that requires it. A protocol of another module
    /// (`CustomStringConvertible`, `Codable`) is not assumed to.
    func existentialIsSendable(_ parts: [String]) -> Bool {
        parts.contains { part in
            ["Sendable", "Error", "Actor", "AnyActor"].contains(part)
                || index.types[part]?.kind == .protocol && protocolIsSendable(part)
                || index.typealiases[part].map { isSendable("any " + $0.type) } == true
        }
    }

    func protocolIsSendable(_ name: String) -> Bool {
        guard let type = index.types[name], type.kind == .protocol else { return false }
        return ProtocolRequirements(type, index: index).requiresSendable
    }

    func isTransaction(_ parameter: IndexedParameter) -> Bool {
        let core = SourceIndex.coreTypeName(parameter.type)
        return core == "DBReadTransaction" || core == "DBWriteTransaction"
    }

    func isClosure(_ parameter: IndexedParameter) -> Bool {
        if parameter.type.contains("->") { return true }
        var type = parameter.type
        for attribute in ["@escaping ", "@Sendable ", "@autoclosure "] {
            type = type.replacingOccurrences(of: attribute, with: "")
        }
        let core = SourceIndex.coreTypeName(type)
        return index.resolvedTypeName(core) != core && (index.typealiases[core]?.type.contains("->") ?? false)
    }

    /// Whether the closure is optional (`(() -> Void)?`), hence escaping.
    func isOptionalClosure(_ parameter: IndexedParameter) -> Bool {
        var type = parameter.type.trimmingWhitespace
        guard type.hasSuffix("?") || type.hasSuffix("!") else { return false }
        type.removeLast()
        guard type.hasPrefix("("), type.hasSuffix(")") else { return false }
        // The first parenthesis must close at the end.
        var depth = 0
        for (offset, character) in type.enumerated() {
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if depth == 0 { return offset == type.count - 1 }
            }
        }
        return false
    }

    /// The parameters recorded, and those passed to the stub only.
    func split(_ requirement: ProtocolRequirements.Requirement)
        -> (recorded: [IndexedParameter], passed: [IndexedParameter], tx: IndexedParameter?) {
        var recorded: [IndexedParameter] = []
        var passed: [IndexedParameter] = []
        var tx: IndexedParameter?
        for parameter in requirement.parameters {
            if isTransaction(parameter) {
                if tx == nil { tx = parameter }
            } else if isClosure(parameter) {
                // A closure whose type names the member's generic
                // parameters cannot reach a stub declared outside it.
                if !isGeneric(parameter.type, requirement) { passed.append(parameter) }
            } else {
                recorded.append(parameter)
                if parameter.isInout && !isGeneric(parameter.type, requirement) { passed.append(parameter) }
            }
        }
        return (recorded, passed, tx)
    }

    func recordedType(_ parameter: IndexedParameter, _ requirement: ProtocolRequirements.Requirement) -> String {
        // A value of the member's own generic parameters keeps its type
        // inside `Any` (a test casts it back); its description would lose it.
        if namesGenericParameters(parameter.type, requirement) { return parameter.isVariadic ? "[Any]" : "Any" }
        // `some P` is recorded as `any P`, which it converts to.
        if parameter.type.contains("some ") {
            let type = valueType(replacingWord("some", in: parameter.type, with: "any"))
            return parameter.isVariadic ? "[\(type)]" : type
        }
        let type = valueType(parameter.type)
        return parameter.isVariadic ? "[\(type)]" : type
    }

    func passedType(_ parameter: IndexedParameter, _ requirement: ProtocolRequirements.Requirement) -> String {
        if parameter.isInout { return "MockInout<\(valueType(parameter.type))>" }
        return valueType(parameter.type)
    }

    func tupleType(_ elements: [(name: String, type: String)]) -> String {
        switch elements.count {
        case 0: return "Void"
        case 1: return elements[0].type
        default: return "(" + elements.map { "\(SwiftText.escaped($0.name)): \($0.type)" }.joined(separator: ", ") + ")"
        }
    }

    func resultStubType(_ requirement: ProtocolRequirements.Requirement) -> String {
        guard let result = requirement.resultType else { return "Void" }
        if isGeneric(result, requirement) { return "Any" }
        return valueType(result)
    }

    func stubsOf(_ member: Member) -> [Stub] {
        let requirement = member.requirement
        switch requirement.kind {
        case .initializer:
            return []
        case let .property(isSettable):
            let type = valueType(requirement.resultType ?? "Void")
            let sendable = isSendable(type)
            var stubs = [Stub(name: member.getter, arguments: "Void", closures: nil, result: type, isSendable: sendable, isStatic: requirement.isStatic,
                isNonisolated: requirement.isNonisolated)]
            if isSettable {
                stubs.append(Stub(name: member.setter, arguments: type, closures: nil, result: "Void", isSendable: sendable, isStatic: requirement.isStatic,
                isNonisolated: requirement.isNonisolated))
            }
            return stubs
        case .method, .subscript:
            let (recorded, passed, _) = split(requirement)
            let arguments = tupleType(recorded.map { ($0.name, recordedType($0, requirement)) })
            let closures = passed.isEmpty ? nil : tupleType(passed.map { ($0.name, passedType($0, requirement)) })
            let result = resultStubType(requirement)
            let sendable = isSendable(arguments) && isSendable(result) && result != "Any"
            var stubs = [Stub(name: member.getter, arguments: arguments, closures: closures, result: result, isSendable: sendable, isStatic: requirement.isStatic,
                isNonisolated: requirement.isNonisolated)]
            if case .subscript(true) = requirement.kind {
                let setterArguments = tupleType(recorded.map { ($0.name, recordedType($0, requirement)) } + [("newValue", result)])
                stubs.append(Stub(name: member.setter, arguments: setterArguments, closures: nil, result: "Void", isSendable: isSendable(setterArguments) && result != "Any", isStatic: requirement.isStatic,
                isNonisolated: requirement.isNonisolated))
            }
            return stubs
        }
    }
}
#endif
