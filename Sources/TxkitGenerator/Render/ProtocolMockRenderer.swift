#if Txkit
/// Writes the mock of a protocol (`txkit mock`): one stub per requirement
/// (a `MockMethod` or one of its variants), each member forwarding to it.
///
/// **Stub names.** A method's stub has the method's name (`nameCall` when
/// it is the one of that name without arguments). Overloads, and a method
/// whose name a property or a method without arguments has, are told
/// apart, in this order, until the names differ: `By` and their argument
/// labels (the parameter name where the label is `_`), then their
/// parameter types, then `Returning` and their result type (and
/// `Throwing`), then `Async`, then their `where` clause, then their
/// position (`2`, `3`…) in the protocol. A property's stubs are `getName`
/// and `setName`; a subscript's `getSubscript` and `setSubscript`,
/// overloads told apart the same way. Swift keywords are escaped with
/// backticks.
///
/// **Which method.** `MockMethod` when the recorded arguments and result
/// are `Sendable`, `NonSendableMockMethod` otherwise; the `…WithClosures`
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
    struct Stub {
        var name: String
        var arguments: String
        var closures: String?
        var result: String
        var isSendable: Bool
        var isStatic: Bool
        /// Its member is `nonisolated`.
        var isNonisolated: Bool

        var type: String {
            let base = isSendable ? "MockMethod" : "NonSendableMockMethod"
            if let closures { return "\(base)WithClosures<\(arguments), \(closures), \(result)>" }
            return "\(base)<\(arguments), \(result)>"
        }
    }

    /// A requirement with its stubs' names.
    struct Member {
        var requirement: ProtocolRequirements.Requirement
        var getter = ""
        var setter = ""
    }

    var associatedNames: Set<String> {
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
    package func refusals() -> [Refusal] {
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
        return reasons.map { Refusal(.cannotMock, at: $0.0, $0.1) }
    }

    /// Requirements that differ only by a result one generic witness
    /// matches too (`subscript<T>(_: String) -> T?` and
    /// `subscript<T>(_: String) -> T`): Swift finds several witnesses for
    /// the first in any conforming type.
    func ambiguousWitnesses() -> [(SourceLocation, String)] {
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
    func erasedParameters(_ requirement: ProtocolRequirements.Requirement) -> [String] {
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
        lines += imports.map(SwiftText.importStatement)
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
            // An actor's stubs are reached from outside it, synchronously,
            // and a global actor's from its `nonisolated` members.
            let reachedOutside = requirements.requiresActor || requirements.globalActor != nil && stub.isNonisolated
            if !stub.isSendable && (stub.isStatic || reachedOutside) {
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
    func identity(_ members: [Member]) -> [String] {
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
}
#endif
