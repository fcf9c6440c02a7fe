#if Txkit
/// Writes the mock of a protocol (`txkit mock`): one stub per requirement
/// (a `MockMethod` or one of its variants), each member forwarding to it.
///
/// **Stub names.** A method's stub has the method's name (`nameCall` when
/// it takes no argument and has no overload). Overloads are told apart,
/// in this order, until the names differ: `By` and their argument labels
/// (the parameter name where the label is `_`), then their parameter
/// types, then `Returning` and their result type, then their position
/// (`2`, `3`…) in the protocol. A property's stubs are `getName` and
/// `setName`; a subscript's `getSubscript` and `setSubscript`, overloads
/// told apart the same way. Swift keywords are escaped with backticks.
///
/// **Which method.** `MockMethod` when the recorded arguments and result
/// are `Sendable`, `IsolatedMockMethod` otherwise; the `…WithClosures`
/// variants when the member takes closures or `inout` arguments, which
/// reach the stub and are never recorded. A transaction parameter is
/// checked and never recorded.
package struct ProtocolMockRenderer {
    package let requirements: ProtocolRequirements
    package let mockName: String
    let imports: [String]
    let marker: String
    let index: SourceIndex

    /// One stub of the mock.
    private struct Stub {
        var name: String
        var arguments: String
        var closures: String?
        var result: String
        var isSendable: Bool
        var isStatic: Bool

        var type: String {
            let base = isSendable ? "MockMethod" : "IsolatedMockMethod"
            if let closures { return "\(base)WithClosures<\(arguments), \(closures), \(result)>" }
            return "\(base)<\(arguments), \(result)>"
        }
    }

    /// A requirement with its stubs' names.
    private struct Member {
        var requirement: ProtocolRequirements.Requirement
        var getter = ""
        var setter = ""
    }

    private var associatedNames: Set<String> {
        Set(requirements.associatedTypes.filter { $0.defaultType == nil }.map(\.name))
    }

    /// Whether the mock is generic (the protocol has associated types
    /// without defaults).
    package var isGeneric: Bool { !associatedNames.isEmpty }

    /// Each requirement with the names of its stubs (`setter` empty when
    /// it has none), and whether its stub receives closures or `inout`
    /// boxes; initializers have no stub.
    package func memberStubs() -> [(requirement: ProtocolRequirements.Requirement, getter: String, setter: String, passesClosures: Bool)] {
        var members = requirements.requirements.map { Member(requirement: $0) }
        nameStubs(&members)
        return members.map { member in
            (member.requirement, member.getter, member.setter, stubsOf(member).first?.closures != nil)
        }
    }

    /// The reasons this protocol cannot be mocked, each with its place.
    package func refusals() -> [(location: SourceLocation, reason: String)] {
        var reasons: [(SourceLocation, String)] = []
        for parent in requirements.unknownParents {
            reasons.append((parent.location, "it inherits from \(parent.name), which is not declared in the sources: txkit cannot read its requirements"))
        }
        if requirements.isObjC {
            reasons.append((requirements.location, "it is an @objc protocol: its mock must be an Objective-C class, which txkit does not write"))
        }
        reasons += ambiguousWitnesses()
        if isGeneric {
            for requirement in requirements.requirements where requirement.isStatic {
                reasons.append((requirement.location, "the static member \(requirement.bareName) of a protocol with associated types: a generic mock cannot store stubs per type"))
            }
        }
        return reasons
    }

    /// Requirements that differ only by a result one generic witness
    /// matches too (`subscript<T>(_: String) -> T?` and
    /// `subscript<T>(_: String) -> T`): Swift finds several witnesses for
    /// the first in any conforming type.
    private func ambiguousWitnesses() -> [(SourceLocation, String)] {
        var reasons: [(SourceLocation, String)] = []
        let all = requirements.requirements
        for (offset, requirement) in all.enumerated() {
            guard case .subscript = requirement.kind, let result = requirement.resultType,
                  genericNames(requirement).contains(result) else { continue }
            let signature = erasedParameters(requirement)
            for other in all[..<offset] + all[(offset + 1)...] {
                guard case .subscript = other.kind, other.resultType != result,
                      erasedParameters(other) == signature,
                      other.resultType.map({ genericNames(other).contains(SourceIndex.coreTypeName($0)) }) == true
                else { continue }
                reasons.append((requirement.location, "this subscript and the one at line \(other.location.line) differ only by a generic result that one implementation matches for both: Swift cannot tell which implements which"))
                break
            }
        }
        return reasons
    }

    /// Parameter labels and types with the member's generic parameters
    /// written `_`.
    private func erasedParameters(_ requirement: ProtocolRequirements.Requirement) -> [String] {
        let names = genericNames(requirement)
        return requirement.parameters.map { parameter in
            var type = parameter.declaredType
            for name in names { type = replacingWord(name, in: type, with: "_") }
            return "\(parameter.label ?? "_"):\(type)"
        }
    }

    package func render() -> String {
        var members = requirements.requirements.map { Member(requirement: $0) }
        nameStubs(&members)
        let stubs = members.flatMap { stubsOf($0) }
        let allSendable = stubs.allSatisfy(\.isSendable)

        var lines = [marker, ""]
        lines += imports.map { "import \($0)" }
        lines.append("")
        lines.append("/// A mock of ``\(requirements.name)``, one `MockMethod` per member.")
        var conformances = [requirements.name]
        if requirements.requiresNSObject { conformances.insert("NSObject", at: 0) }
        let keyword: String
        var attributes: [String] = []
        if requirements.requiresActor {
            keyword = "actor"
        } else {
            keyword = "final class"
            if let globalActor = requirements.globalActor {
                attributes.append(globalActor)
            } else if allSendable && !requirements.requiresNSObject {
                conformances.append("Sendable")
            } else if requirements.requiresSendable || requirements.requiresNSObject && allSendable {
                lines += [
                    "///",
                    "/// `@unchecked Sendable`: the protocol requires `Sendable`, but some values it passes are",
                    "/// not; the mock records them and hands them to its stubs unchecked. Use it, its stubs and",
                    "/// what they record from the test's isolation only.",
                ]
                conformances.append("@unchecked Sendable")
            } else {
                lines += [
                    "///",
                    "/// Not `Sendable`: some values the protocol passes are not, so the compiler keeps the mock",
                    "/// in the isolation that created it (the test's).",
                ]
            }
        }
        var generics = ""
        var whereClause: [String] = []
        let associated = requirements.associatedTypes
        let genericParameters = associated.filter { $0.defaultType == nil }.map { type in
            type.constraint.map { "\(type.name): \($0)" } ?? type.name
        }
        if !genericParameters.isEmpty { generics = "<\(genericParameters.joined(separator: ", "))>" }
        for type in associated where type.defaultType == nil { whereClause += type.requirements }
        let whereText = whereClause.isEmpty ? "" : " where " + whereClause.joined(separator: ", ")
        lines += attributes
        lines.append("\(keyword) \(mockName)\(generics): \(conformances.joined(separator: ", "))\(whereText) {")
        var body: [String] = []
        for type in associated {
            if let defaultType = type.defaultType { body.append("typealias \(type.name) = \(defaultType)") }
        }
        for stub in stubs {
            var prefix = stub.isStatic ? "static " : ""
            // An actor's stubs are reached from outside it, synchronously.
            if !stub.isSendable && (stub.isStatic || requirements.requiresActor) {
                prefix = "nonisolated(unsafe) " + prefix
            } else if requirements.requiresActor && !stub.isStatic {
                prefix = "nonisolated " + prefix
            }
            body.append("\(prefix)let \(stub.name) = \(stub.type)()")
        }
        let statics = stubs.filter(\.isStatic)
        if !statics.isEmpty {
            body += [
                "",
                "/// Forgets the stubs and calls of the static members, which every",
                "/// test shares: call it where a test that uses them starts.",
                "static func resetStaticStubs() {",
            ]
            body += statics.map { "    \($0.name).reset()" }
            body.append("}")
        }
        let initializers = members.filter { if case .initializer = $0.requirement.kind { true } else { false } }
        if !initializers.isEmpty, !initializers.contains(where: { $0.requirement.parameters.isEmpty }) {
            body.append("")
            body.append(requirements.requiresNSObject ? "override init() { super.init() }" : "init() {}")
        }
        for member in members {
            body.append("")
            body += render(member)
        }
        body += identity(members)
        lines += body.map { $0.isEmpty ? "" : "    " + $0 }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `==`, `hash(into:)` and `id` for the standard-library parents,
    /// by the mock's identity, unless the protocol declares them.
    private func identity(_ members: [Member]) -> [String] {
        let parents = requirements.standardParents
        let declared = Set(members.map(\.requirement.bareName))
        let nonisolated = requirements.requiresActor || requirements.globalActor != nil ? "nonisolated " : ""
        var lines: [String] = []
        if parents.contains("Equatable") || parents.contains("Hashable"), !declared.contains("==") {
            lines += ["", "/// The same mock.", "\(nonisolated)static func == (lhs: \(mockName), rhs: \(mockName)) -> Bool {", "    lhs === rhs", "}"]
        }
        if parents.contains("Hashable"), !declared.contains("hash") {
            lines += ["", "\(nonisolated)func hash(into hasher: inout Hasher) {", "    hasher.combine(ObjectIdentifier(self))", "}"]
        }
        if parents.contains("Identifiable"), !declared.contains("id") {
            lines += ["", "\(nonisolated)var id: ObjectIdentifier { ObjectIdentifier(self) }"]
        }
        return lines
    }

    // MARK: Names

    private func nameStubs(_ members: inout [Member]) {
        var taken: Set<String> = ["resetStaticStubs"]
        // Methods first, by base name; properties and subscripts get/set.
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (index, member) in members.enumerated() {
            let key: String
            switch member.requirement.kind {
            case .method: key = "m " + member.requirement.bareName
            case .subscript: key = "s subscript"
            case .property: key = "p " + member.requirement.bareName
            case .initializer: continue
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        for key in order {
            let indices = groups[key]!
            var names: [Int: String] = [:]
            for index in indices {
                let requirement = members[index].requirement
                var base = requirement.bareName
                if case .subscript = requirement.kind { base = "subscript" }
                if indices.count == 1, case .method = requirement.kind, requirement.parameters.isEmpty {
                    base += "Call"
                }
                names[index] = base
            }
            if indices.count > 1 {
                let steps: [(ProtocolRequirements.Requirement) -> String] = [
                    { requirement in
                        let labels = requirement.parameters.map { $0.label ?? $0.name }
                        guard let first = labels.first else { return "" }
                        // `fetch(byName:)` is `fetchByName`, not `fetchByByName`.
                        let startsWithBy = first.hasPrefix("by") && first.dropFirst(2).first?.isUppercase == true
                        return (startsWithBy ? "" : "By") + labels.map(SwiftText.capitalized).joined()
                    },
                    { requirement in requirement.parameters.map { SwiftText.identifier(from: $0.declaredType) }.joined() },
                    { requirement in "Returning" + SwiftText.identifier(from: requirement.resultType ?? "Void")
                        + (requirement.throwsClause == nil ? "" : "Throwing") },
                ]
                for step in steps {
                    let counts = Dictionary(grouping: indices, by: { names[$0]! })
                    guard counts.values.contains(where: { $0.count > 1 }) else { break }
                    for index in indices where counts[names[index]!]!.count > 1 {
                        names[index]! += step(members[index].requirement)
                    }
                }
            }
            for index in indices {
                let base = names[index]!
                switch members[index].requirement.kind {
                case .method:
                    members[index].getter = unique(base, &taken)
                case .property, .subscript:
                    let capital = SwiftText.capitalized(base)
                    members[index].getter = unique("get" + capital, &taken)
                    members[index].setter = unique("set" + capital, &taken)
                case .initializer:
                    break
                }
            }
        }
    }

    private func unique(_ name: String, _ taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = "\(name)\(number)"
            number += 1
        }
        return SwiftText.escaped(candidate)
    }

    // MARK: Types

    /// A type the mock writes inside its own body: `Self` is the mock.
    private func written(_ type: String) -> String {
        replacingWord("Self", in: type, with: mockName)
    }

    private func replacingWord(_ word: String, in text: String, with replacement: String) -> String {
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
    private func valueType(_ type: String) -> String {
        var type = written(type)
        for attribute in ["@escaping ", "@autoclosure ", "sending ", "__owned ", "borrowing ", "consuming "] {
            type = type.replacingOccurrences(of: attribute, with: "")
        }
        return type.replacingOccurrences(of: "!", with: "?")
    }

    private func words(_ type: String) -> [String] {
        type.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
    }

    /// Whether a type mentions a member's generic parameters or is opaque.
    private func isGeneric(_ type: String, _ requirement: ProtocolRequirements.Requirement) -> Bool {
        let names = genericNames(requirement)
        return type.contains("some ") || words(type).contains { names.contains($0) }
    }

    /// Whether a type names the member's generic parameters (recorded by
    /// description: the stub is declared outside the member).
    private func namesGenericParameters(_ type: String, _ requirement: ProtocolRequirements.Requirement) -> Bool {
        let names = genericNames(requirement)
        return words(type).contains { names.contains($0) }
    }

    private func genericNames(_ requirement: ProtocolRequirements.Requirement) -> Set<String> {
        let clause = requirement.genericParameters
        guard clause.count > 2 else { return [] }
        let inner = clause.dropFirst().dropLast()
        return Set(inner.split(separator: ",").compactMap { part in
            part.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) }
                .flatMap { $0.split(separator: " ").last.map(String.init) }
        })
    }

    /// Types whose values are not `Sendable` (or not known to be).
    private static let nonSendableWords: Set<String> = [
        "Any", "AnyObject", "AnyClass", "Self", "NSObject", "CVarArg", "AnyPublisher", "CurrentValueSubject",
        "PassthroughSubject", "Cancellable", "AnyCancellable", "DBReadTransaction", "DBWriteTransaction",
        "NSManagedObjectContext", "NSManagedObject", "OperationQueue", "DispatchQueue",
    ]

    /// Whether a value of `type` is `Sendable`, as far as the sources say:
    /// closures without `@Sendable`, `Any`, the mock's associated types,
    /// classes and protocols of the sources not declared `Sendable` are
    /// not; types from other modules are assumed to be.
    private func isSendable(_ type: String, seen: Set<String> = []) -> Bool {
        if type.contains("->") && !type.contains("@Sendable") { return false }
        if !existentialsAreSendable(type) { return false }
        for word in words(type) {
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
            default:
                continue
            }
        }
        return true
    }

    /// Whether each `any P & Q` in `type` is `Sendable`: it names
    /// `Sendable` (or `Error`, `Actor`), or a protocol of the sources that
    /// requires it. A protocol of another module (`CustomStringConvertible`)
    /// is not assumed to.
    private func existentialsAreSendable(_ type: String) -> Bool {
        let parts = type.components(separatedBy: "any ").dropFirst()
        for part in parts {
            var composition = ""
            for character in part {
                if character.isLetter || character.isNumber || "_.& <".contains(character) {
                    composition.append(character)
                } else {
                    break
                }
            }
            let names = composition.split(separator: "&").map {
                String($0.split(separator: "<").first ?? "").trimmingWhitespace
            }
            if names.contains(where: { ["Sendable", "Error", "Actor", "AnyActor"].contains($0) }) { continue }
            guard names.allSatisfy({ name in index.types[name]?.kind == .protocol && protocolIsSendable(name) }) else {
                return false
            }
        }
        return true
    }

    private func protocolIsSendable(_ name: String) -> Bool {
        guard let type = index.types[name], type.kind == .protocol else { return false }
        return ProtocolRequirements(type, index: index).requiresSendable
    }

    private func isTransaction(_ parameter: IndexedParameter) -> Bool {
        let core = SourceIndex.coreTypeName(parameter.type)
        return core == "DBReadTransaction" || core == "DBWriteTransaction"
    }

    private func isClosure(_ parameter: IndexedParameter) -> Bool {
        if parameter.type.contains("->") { return true }
        var type = parameter.type
        for attribute in ["@escaping ", "@Sendable ", "@autoclosure "] {
            type = type.replacingOccurrences(of: attribute, with: "")
        }
        let core = SourceIndex.coreTypeName(type)
        return index.resolvedTypeName(core) != core && (index.typealiases[core]?.type.contains("->") ?? false)
    }

    /// Whether the closure is optional (`(() -> Void)?`), hence escaping.
    private func isOptionalClosure(_ parameter: IndexedParameter) -> Bool {
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
    private func split(_ requirement: ProtocolRequirements.Requirement)
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

    private func recordedType(_ parameter: IndexedParameter, _ requirement: ProtocolRequirements.Requirement) -> String {
        if namesGenericParameters(parameter.type, requirement) { return "String" }
        // `some P` is recorded as `any P`, which it converts to.
        if parameter.type.contains("some ") {
            let type = valueType(replacingWord("some", in: parameter.type, with: "any"))
            return parameter.isVariadic ? "[\(type)]" : type
        }
        let type = valueType(parameter.type)
        return parameter.isVariadic ? "[\(type)]" : type
    }

    private func passedType(_ parameter: IndexedParameter, _ requirement: ProtocolRequirements.Requirement) -> String {
        if parameter.isInout { return "MockInout<\(valueType(parameter.type))>" }
        return valueType(parameter.type)
    }

    private func tupleType(_ elements: [(name: String, type: String)]) -> String {
        switch elements.count {
        case 0: return "Void"
        case 1: return elements[0].type
        default: return "(" + elements.map { "\(SwiftText.escaped($0.name)): \($0.type)" }.joined(separator: ", ") + ")"
        }
    }

    private func resultStubType(_ requirement: ProtocolRequirements.Requirement) -> String {
        guard let result = requirement.resultType else { return "Void" }
        if isGeneric(result, requirement) { return "Any" }
        return valueType(result)
    }

    private func stubsOf(_ member: Member) -> [Stub] {
        let requirement = member.requirement
        switch requirement.kind {
        case .initializer:
            return []
        case let .property(isSettable):
            let type = valueType(requirement.resultType ?? "Void")
            let sendable = isSendable(type)
            var stubs = [Stub(name: member.getter, arguments: "Void", closures: nil, result: type, isSendable: sendable, isStatic: requirement.isStatic)]
            if isSettable {
                stubs.append(Stub(name: member.setter, arguments: type, closures: nil, result: "Void", isSendable: sendable, isStatic: requirement.isStatic))
            }
            return stubs
        case .method, .subscript:
            let (recorded, passed, _) = split(requirement)
            let arguments = tupleType(recorded.map { ($0.name, recordedType($0, requirement)) })
            let closures = passed.isEmpty ? nil : tupleType(passed.map { ($0.name, passedType($0, requirement)) })
            let result = resultStubType(requirement)
            let sendable = isSendable(arguments) && isSendable(result) && result != "Any"
            var stubs = [Stub(name: member.getter, arguments: arguments, closures: closures, result: result, isSendable: sendable, isStatic: requirement.isStatic)]
            if case .subscript(true) = requirement.kind {
                let setterArguments = tupleType(recorded.map { ($0.name, recordedType($0, requirement)) } + [("newValue", result)])
                stubs.append(Stub(name: member.setter, arguments: setterArguments, closures: nil, result: "Void", isSendable: isSendable(setterArguments) && result != "Any", isStatic: requirement.isStatic))
            }
            return stubs
        }
    }

    // MARK: Members

    private func render(_ member: Member) -> [String] {
        let requirement = member.requirement
        let staticWord = requirement.isStatic ? "static " : ""
        let receiver = "self"
        switch requirement.kind {
        case let .initializer(isFailable):
            let parameters = requirement.parameters.map { SwiftText.parameterDeclaration($0, type: written($0.declaredType)) }
            let effects = SwiftText.effects(isAsync: requirement.isAsync, throwsClause: requirement.throwsClause)
            let whereText = requirement.whereClause.isEmpty ? "" : " " + requirement.whereClause
            let superInit = requirements.requiresNSObject ? " super.init() " : ""
            return requirement.attributes + [
                "init\(isFailable ? "?" : "")\(requirement.genericParameters)(\(parameters.joined(separator: ", ")))\(effects)\(whereText) {\(superInit)}"
            ]
        case let .property(isSettable):
            let type = written(requirement.resultType ?? "Void")
            let getter = answer(
                stub: member.getter, arguments: nil, closures: nil, tx: nil, requirement: requirement,
                resultType: nil, receiver: receiver, omitsVoid: stubsOf(member).first?.isSendable ?? false)
            let name = requirement.name
            let effects = SwiftText.effects(isAsync: requirement.isAsync, throwsClause: requirement.throwsClause)
            let getterLine = getter.count == 1 ? String(getter[0].dropFirst("return ".count)) : nil
            if let getterLine, effects.isEmpty, !isSettable {
                return requirement.attributes + ["\(staticWord)var \(name): \(type) { \(getterLine) }"]
            }
            var lines = requirement.attributes + ["\(staticWord)var \(name): \(type) {"]
            if let getterLine {
                lines.append("    get\(effects) { \(getterLine) }")
            } else {
                lines.append("    get\(effects) {")
                lines += getter.map { "        " + $0 }
                lines.append("    }")
            }
            if isSettable {
                lines.append("    set { \(member.setter).callWithoutThrowing(newValue, in: \(receiver)) }")
            }
            lines.append("}")
            return lines
        case .method, .subscript:
            let (recorded, passed, tx) = split(requirement)
            let parameters = requirement.parameters.map { parameter in
                // A subscript's label is written twice (`name name:`).
                if case .subscript = requirement.kind, let label = parameter.label {
                    return "\(label) \(parameter.name): \(written(parameter.declaredType))"
                }
                return SwiftText.parameterDeclaration(parameter, type: written(parameter.declaredType))
            }
            var header: String
            let effects = SwiftText.effects(isAsync: requirement.isAsync, throwsClause: requirement.throwsClause)
            let result = requirement.resultType.map(written)
            if case .subscript = requirement.kind {
                header = "\(staticWord)subscript\(requirement.genericParameters)(\(parameters.joined(separator: ", "))) -> \(result ?? "Void")"
            } else {
                header = "\(staticWord)func \(requirement.name)\(requirement.genericParameters)(\(parameters.joined(separator: ", ")))\(effects)"
                if let result { header += " -> \(result)" }
            }
            if !requirement.whereClause.isEmpty { header += " \(requirement.whereClause)" }
            let recordedValues = recorded.map { parameter -> String in
                let name = SwiftText.escaped(parameter.name)
                return namesGenericParameters(parameter.type, requirement) ? "String(describing: \(name))" : name
            }
            let arguments: String? = switch recordedValues.count {
            case 0: nil
            case 1: recordedValues[0]
            default: "(\(recordedValues.joined(separator: ", ")))"
            }
            var prologue: [String] = []
            var passedValues: [String] = []
            var escaping: [String] = []
            for parameter in passed {
                let name = SwiftText.escaped(parameter.name)
                if parameter.isInout {
                    let box = "\(parameter.name.replacingOccurrences(of: "`", with: ""))Box"
                    prologue += ["let \(box) = MockInout(\(name))", "defer { \(name) = \(box).value }"]
                    passedValues.append(box)
                } else {
                    let isEscaping = parameter.type.contains("@escaping") || isOptionalClosure(parameter)
                    if !isEscaping { escaping.append(name) }
                    passedValues.append(name)
                }
            }
            let closures: String? = switch passedValues.count {
            case 0: nil
            case 1: passedValues[0]
            default: "(\(passedValues.joined(separator: ", ")))"
            }
            var call = answer(
                stub: member.getter, arguments: arguments, closures: closures, tx: tx.map { SwiftText.escaped($0.name) },
                requirement: requirement, resultType: result, receiver: receiver,
                omitsVoid: stubsOf(member).first.map { $0.isSendable && $0.closures == nil } ?? false)
            for name in escaping.reversed() {
                let isThrowing = call.joined().contains("try ")
                call = ["return \(isThrowing ? "try " : "")withoutActuallyEscaping(\(name)) { \(name) in"] + call.map { "    " + $0 } + ["}"]
            }
            if prologue.isEmpty, call.count == 1, call[0].hasPrefix("return ") {
                call[0] = String(call[0].dropFirst("return ".count))
            }
            var lines = requirement.attributes + [header + " {"]
            if case .subscript(true) = requirement.kind {
                let newValue = resultStubType(requirement) == "Any" ? "newValue as Any" : "newValue"
                let setterArguments = (recordedValues + [newValue])
                let value = setterArguments.count == 1 ? setterArguments[0] : "(\(setterArguments.joined(separator: ", ")))"
                lines.append("    get\(effects) {")
                lines += (prologue + call).map { "        " + $0 }
                lines.append("    }")
                lines.append("    set { \(self.owner(requirement, member.setter)).callWithoutThrowing(\(value), in: \(receiver)) }")
            } else if case .subscript = requirement.kind, !effects.isEmpty {
                lines.append("    get\(effects) {")
                lines += (prologue + call).map { "        " + $0 }
                lines.append("    }")
            } else {
                lines += (prologue + call).map { "    " + $0 }
            }
            lines.append("}")
            return lines
        }
    }

    /// `stub`, or `self.stub` where a parameter has its name.
    private func owner(_ requirement: ProtocolRequirements.Requirement, _ stub: String) -> String {
        requirement.parameters.contains { SwiftText.escaped($0.name) == stub } ? "self." + stub : stub
    }

    /// The statements that call the stub and return its answer.
    private func answer(
        stub: String, arguments: String?, closures: String?, tx: String?,
        requirement: ProtocolRequirements.Requirement, resultType: String?, receiver: String, omitsVoid: Bool
    ) -> [String] {
        var list: [String] = []
        if let arguments {
            list.append(arguments)
        } else if !omitsVoid || closures != nil {
            list.append("()")
        }
        if let closures { list.append("closures: \(closures)") }
        if let tx { list.append(tx) }
        list.append("in: \(receiver)")
        let argumentList = list.joined(separator: ", ")
        // `self.` only where a parameter has the stub's name.
        let shadowed = requirement.parameters.contains { SwiftText.escaped($0.name) == stub }
        let stub = shadowed ? "self." + stub : stub
        let throwsClause = requirement.throwsClause.flatMap(Self.normalizedThrows)
        let isGenericResult = requirement.resultType.map { isGeneric($0, requirement) } ?? false
        let cast = { (value: String, throwing: Bool) -> String in
            guard isGenericResult, let resultType else { return value }
            return throwing
                ? "try mockCast(\(value), to: (\(resultType)).self, in: \(receiver))"
                : "mockCastWithoutThrowing(\(value), to: (\(resultType)).self, in: \(receiver))"
        }
        switch throwsClause {
        case "throws"?:
            return ["return " + cast("try \(stub).call(\(argumentList))", true)]
        case let typed? where typed.hasPrefix("throws("):
            let errorType = typed.dropFirst("throws(".count).dropLast()
            return [
                "do {",
                "    return " + cast("try \(stub).call(\(argumentList))", true),
                "} catch let error as \(errorType) {",
                "    throw error",
                "} catch {",
                "    return MockFailureDefault.answer(after: error, in: \(receiver))",
                "}",
            ]
        default:
            if isGenericResult {
                // The stub answers `Any`: the cast, not the stub, knows
                // the default (`nil` for an optional).
                return [
                    "do {",
                    "    return " + cast("try \(stub).call(\(argumentList))", true),
                    "} catch {",
                    "    return MockFailureDefault.answer(after: error, in: \(receiver))",
                    "}",
                ]
            }
            return ["return " + cast("\(stub).callWithoutThrowing(\(argumentList))", false)]
        }
    }

    /// `throws(any Error)` is `throws`; `throws(Never)` does not throw.
    private static func normalizedThrows(_ clause: String) -> String? {
        let compact = clause.replacingOccurrences(of: " ", with: "")
        if compact == "throws(anyError)" || compact == "throws(Error)" { return "throws" }
        if compact == "throws(Never)" || compact == "rethrows" { return nil }
        return compact.hasPrefix("throws(") ? "throws(" + clause.split(separator: "(", maxSplits: 1)[1] : clause
    }
}
#endif
