#if Txkit
/// Each member of the mock and the stub it forwards to.
extension ProtocolMockRenderer {
    func render(_ member: Member) -> [String] {
        let requirement = member.requirement
        // `nonisolated` stays where the mock is isolated: the member is
        // reached from outside its actor.
        let isolated = requirements.requiresActor || requirements.globalActor != nil
        let staticWord = (requirement.isNonisolated && isolated ? "nonisolated " : "") + (requirement.isStatic ? "static " : "")
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
                return namesGenericParameters(parameter.type, requirement) && !parameter.isVariadic ? "\(name) as Any" : name
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
    func owner(_ requirement: ProtocolRequirements.Requirement, _ stub: String) -> String {
        requirement.parameters.contains { SwiftText.escaped($0.name) == stub } ? "self." + stub : stub
    }

    /// The statements that call the stub and return its answer.
    func answer(
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
    static func normalizedThrows(_ clause: String) -> String? {
        let compact = clause.replacingOccurrences(of: " ", with: "")
        if compact == "throws(anyError)" || compact == "throws(Error)" { return "throws" }
        if compact == "throws(Never)" || compact == "rethrows" { return nil }
        return compact.hasPrefix("throws(") ? "throws(" + clause.split(separator: "(", maxSplits: 1)[1] : clause
    }
}
#endif
