#if Txkit
/// Writes a mock: one `MockMethod` per member, each member forwarding to
/// it (which checks the transaction, records the arguments, and answers
/// from the stub or fails the test through `unimplemented`).
///
/// A member that passes or returns a class that is not `Sendable` (a
/// legacy model object) gets a `NonSendableMockMethod`, which keeps its
/// calls in the test's isolation; the mock is then not `Sendable`, or
/// `@unchecked Sendable` when the shim protocol requires it, as
/// `txkit mock` does (Guides/Testing.md).
struct MockRenderer {
    let mockName: String
    let protocolName: String
    let members: [ShimMember]
    let imports: [String]
    let documentation: String
    let marker: String
    /// The classes that are not `Sendable` (``ShimPlan/nonSendableValueTypes(configuration:)``).
    var nonSendableTypes: Set<String> = []
    /// Whether the shim protocol requires `Sendable`.
    var isProtocolSendable = true

    /// Whether `member` passes or returns one of ``nonSendableTypes``.
    func isIsolated(_ member: ShimMember) -> Bool {
        let types = member.recordedParameters.map { ($0.parameter.valueType, $0.parameter.shape) }
            + (member.resultType.map { [($0, member.resultShape)] } ?? [])
        return types.contains { type, shape in
            !member.isGeneric(shape) && ShimPlan.valueTypeNames(in: type).contains(where: nonSendableTypes.contains)
        }
    }

    /// The mock's conformances after the protocol's.
    var sendableConformance: String {
        guard members.contains(where: isIsolated) else { return ", Sendable" }
        return isProtocolSendable ? ", @unchecked Sendable" : ""
    }

    func render() -> String {
        var lines = [marker, ""]
        lines += imports.map (SwiftText.importStatement)
        lines += [
            "",
            "/// \(documentation)",
            "final class \(mockName): \(protocolName)\(sendableConformance) {",
        ]
        for member in members {
            lines += stubs(member).map { "    " + $0 }
        }
        for member in members {
            lines.append("")
            lines += forwarding(member).map { "    " + $0 }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func stubs(_ member: ShimMember) -> [String] {
        let method = isIsolated(member) ? "NonSendableMockMethod" : "MockMethod"
        switch member.legacy.kind {
        case .property:
            let type = valueType(member.resultType ?? "Void", shape: member.resultShape, in: member)
            let getter = "let get\(SwiftText.capitalized(member.stubName)) = \(method)<Void, \(type)>()"
            guard member.isWritten else { return [getter] }
            return [getter, "let set\(SwiftText.capitalized(member.stubName)) = \(method)<\(type), Void>()"]
        case .function:
            let passed = passedParameters(member)
            guard !passed.isEmpty else {
                return ["let \(member.stubName) = \(method)<\(argumentsType(member)), \(resultType(member))>()"]
            }
            let closures = passed.count == 1
                ? passedType(passed[0])
                : "(" + passed.map { "\(SwiftText.escaped($0.name)): \(passedType($0))" }.joined(separator: ", ") + ")"
            return ["let \(member.stubName) = \(method)WithClosures<\(argumentsType(member)), \(closures), \(resultType(member))>()"]
        }
    }

    /// The arguments the stub receives without recording them: closures
    /// (which it can call) and `inout` values (a ``MockInout`` box whose
    /// value the stub can set), as `txkit mock` passes them. Those of the
    /// member's generic types cannot reach a stub declared outside it.
    private func passedParameters(_ member: ShimMember) -> [IndexedParameter] {
        member.legacy.parameters.enumerated().compactMap { index, parameter in
            guard member.transactions[index] == nil, !member.isGeneric(parameter.shape) else { return nil }
            return parameter.isClosure || parameter.isInout ? parameter : nil
        }
    }

    private func passedType(_ parameter: IndexedParameter) -> String {
        parameter.isInout ? "MockInout<\(parameter.valueType)>" : parameter.valueType
    }

    /// Whether the closure may escape the call (`@escaping`, or optional),
    /// so that it reaches the stub without `withoutActuallyEscaping`.
    private func isEscaping(_ parameter: IndexedParameter) -> Bool {
        parameter.type.contains("@escaping") || parameter.shape.isOptional
    }

    /// The recorded arguments' type: `Void`, one type, or a labeled tuple.
    private func argumentsType(_ member: ShimMember) -> String {
        let recorded = member.recordedParameters
        switch recorded.count {
        case 0: return "Void"
        case 1: return valueType(recorded[0].parameter.valueType, shape: recorded[0].parameter.shape, in: member)
        default:
            let elements = recorded.map {
                "\($0.parameter.name): \(valueType($0.parameter.valueType, shape: $0.parameter.shape, in: member))"
            }
            return "(\(elements.joined(separator: ", ")))"
        }
    }

    private func resultType(_ member: ShimMember) -> String {
        valueType(member.resultType ?? "Void", shape: member.resultShape, in: member)
    }

    /// Generic and opaque types are recorded by description and returned
    /// as `any Sendable`.
    private func valueType(_ type: String, shape: TypeShape?, in member: ShimMember) -> String {
        guard member.isGeneric(shape) else { return type }
        return type == member.resultType ? "any Sendable" : "String"
    }

    private func forwarding(_ member: ShimMember) -> [String] {
        switch member.legacy.kind {
        case .property:
            let name = SwiftText.capitalized(member.stubName)
            let type = member.resultType ?? "Void"
            let cast = member.isGeneric(member.resultShape) ? " as! \(type)" : ""
            // A NonSendableMockMethod call spells out its `()` arguments.
            let none = isIsolated(member) ? "(), " : ""
            if member.isWritten {
                return [
                    "var \(member.legacy.name): \(type) {",
                    "    get { get\(name).callWithoutThrowing(\(none)in: self)\(cast) }",
                    "    set { set\(name).callWithoutThrowing(newValue, in: self) }",
                    "}",
                ]
            }
            return ["var \(member.legacy.name): \(type) { get\(name).callWithoutThrowing(\(none)in: self)\(cast) }"]
        case .function:
            let signature = ShimRenderer.signature(member, parameters: Array(member.legacy.parameters.indices))
            return member.legacy.attributes + ["\(signature) {"] + body(member).map { "    " + $0 } + ["}"]
        }
    }

    private func body(_ member: ShimMember) -> [String] {
        let recorded = member.recordedParameters.map { entry -> String in
            member.isGeneric(entry.parameter.shape) ? "String(describing: \(entry.parameter.name))" : entry.parameter.name
        }
        let passed = passedParameters(member)
        var prologue: [String] = []
        var closures: [String] = []
        var nonEscaping: [String] = []
        for parameter in passed {
            let name = SwiftText.escaped(parameter.name)
            if parameter.isInout {
                let box = parameter.name.replacingOccurrences(of: "`", with: "") + "Box"
                prologue += ["let \(box) = MockInout(\(name))", "defer { \(name) = \(box).value }"]
                closures.append(box)
            } else {
                if !isEscaping(parameter) { nonEscaping.append(name) }
                closures.append(name)
            }
        }
        var arguments: [String] = []
        switch recorded.count {
        case 0 where isIsolated(member) || !passed.isEmpty: arguments.append("()")
        case 0: break
        case 1: arguments.append(recorded[0])
        default: arguments.append("(\(recorded.joined(separator: ", ")))")
        }
        switch closures.count {
        case 0: break
        case 1: arguments.append("closures: \(closures[0])")
        default: arguments.append("closures: (\(closures.joined(separator: ", ")))")
        }
        if let index = member.transactions.keys.first {
            arguments.append(member.isBridged ? "tx" : member.legacy.parameters[index].name)
        }
        arguments.append("in: self")
        let cast = member.resultType.map { member.isGeneric(member.resultShape) ? " as! \($0)" : "" } ?? ""
        var call = answer(member, arguments: arguments.joined(separator: ", "), cast: cast)
        // A non-escaping closure reaches the stub through
        // `withoutActuallyEscaping`, valid while the stub runs.
        for name in nonEscaping.reversed() {
            let isThrowing = call.joined().contains("try ")
            if call.count == 1 { call[0] = "return " + call[0] }
            call = ["return \(isThrowing ? "try " : "")withoutActuallyEscaping(\(name)) { \(name) in"] + call.map { "    " + $0 } + ["}"]
        }
        if !prologue.isEmpty, call.count == 1 { call[0] = "return " + call[0] }
        return prologue + call
    }

    /// The statements that call the stub and answer its result.
    private func answer(_ member: ShimMember, arguments: String, cast: String) -> [String] {
        switch member.shimThrowsClause {
        case "throws"?:
            return ["try \(member.stubName).call(\(arguments))\(cast)"]
        case let typed? where typed.hasPrefix("throws("):
            let errorType = typed.dropFirst("throws(".count).dropLast()
            return [
                "do {",
                "    return try \(member.stubName).call(\(arguments))\(cast)",
                "} catch let error as \(errorType) {",
                "    throw error",
                "} catch {",
                "    fatalError(\"\\(error)\")",
                "}",
            ]
        default:
            return ["\(member.stubName).callWithoutThrowing(\(arguments))\(cast)"]
        }
    }
}
#endif
