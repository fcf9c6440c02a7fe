#if Txkit
import SwiftSyntax

extension ConsumerRewriter {
    /// A parameter of one of the consumer's methods declared with the
    /// legacy type (`func archive(_ id: Int64, store: TaskStore)`), through
    /// which uses reach it: `--apply` retypes it to the shim and wraps what
    /// each caller passes in the production wrapper.
    struct LegacyParameter {
        var function: FunctionDeclSyntax
        var parameter: FunctionParameterSyntax
        var file: SourceFile
        /// The uses through it (their offsets).
        var uses: Set<Int>

        /// The parameter's name inside the function.
        var name: String { parameter.internalName }

        /// The function's argument labels, `nil` for `_`.
        var labels: [String?] {
            function.argumentLabels
        }

        /// The parameter's index in the function's parameters.
        var index: Int {
            Array(function.signature.parameterClause.parameters).firstIndex { $0.id == parameter.id } ?? 0
        }
    }

    /// The uses that go through a parameter of a consumer method declared
    /// with the legacy type, grouped by parameter; `refusals` for the
    /// parameters `--apply` cannot retype (read for another purpose than a
    /// call of the legacy type's members, or a method whose callers it
    /// cannot tell apart).
    func legacyParameters(
        _ uses: [ConsumerUse], refusals: inout [Refusal], refusedUses: inout Set<Int>
    ) -> [LegacyParameter] {
        var found: [SyntaxIdentifier: LegacyParameter] = [:]
        for use in uses {
            guard case let .variable(name) = use.base,
                  let (function, parameter) = use.node.enclosingFunctionParameter(named: name),
                  parameter.type.trimmedText == legacyName
            else { continue }
            found[parameter.id, default: LegacyParameter(function: function, parameter: parameter, file: use.file, uses: [])]
                .uses.insert(use.node.position.utf8Offset)
        }
        return found.values.sorted { $0.parameter.position < $1.parameter.position }.filter { candidate in
            let counter = ReferenceCounter(name: candidate.name)
            if let body = candidate.function.body { counter.walk(body) }
            let usePositions = Set(uses.filter { candidate.uses.contains($0.node.position.utf8Offset) }
                .compactMap { $0.node.base?.position.utf8Offset })
            let location = candidate.file.sourceLocation(of: candidate.parameter)
            guard counter.positions.subtracting(usePositions).isEmpty else {
                refusals.append(Refusal(
                    .cannotApply, at: location,
                    "`\(candidate.name)`, a parameter of \(consumerName).\(candidate.function.name.text) of type "
                        + "\(legacyName), is used for more than calls of its members (passed on or stored), and --apply "
                        + "would retype it to \(shimType)",
                    fix: "edit it by hand, then run again"))
                refusedUses.formUnion(candidate.uses)
                return false
            }
            let declarations = sourceFiles(mentioning: candidate.function.name.text).flatMap { file -> [FunctionDeclSyntax] in
                let finder = MethodCallFinder(name: candidate.function.name.text)
                finder.walk(file.tree)
                return finder.declarations
            }
            let sameLabels = declarations.filter { declaration in
                declaration.argumentLabels
                    == candidate.labels
            }
            // Another type's function of that name and labels: each call's
            // receiver must be typed to tell whose it is.
            let untyped = sameLabels.count == 1 ? [] : callers(of: candidate).filter { $0.type == nil }
            guard untyped.isEmpty else {
                let place = untyped[0]
                refusals.append(Refusal(
                    .cannotApply, at: location,
                    "`\(candidate.name)` is a \(legacyName) parameter of \(consumerName).\(candidate.function.name.text), "
                        + "and \(sameLabels.count) functions of the sources have that name and those labels: --apply "
                        + "cannot tell whose function the call at \(place.file.sourceLocation(of: place.call)) calls, to "
                        + "wrap what it passes",
                    fix: "edit it by hand, then run again"))
                refusedUses.formUnion(candidate.uses)
                return false
            }
            return true
        }
    }

    /// Retypes each parameter to the shim and wraps what the callers in the
    /// sources pass for it (`archive(1, store: TaskStore())` becomes
    /// `archive(1, store: TaskManager.Wrappers.TaskStore())`). Callers
    /// outside the sources are not seen.
    func retypeLegacyParameters(_ parameters: [LegacyParameter], edits: inout EditBuffer) {
        for parameter in parameters {
            edits.replace(parameter.parameter.type, in: parameter.file, with: shimType)
            for caller in callers(of: parameter) where caller.type == nil || caller.type == consumerName {
                let argument = Array(caller.call.arguments)[parameter.index]
                let text = argument.expression.trimmedText
                if GeneratedLayout.namesWrapperOrMock(text, consumer: consumerName) { continue }
                // A call that passes on a parameter of the shim's type.
                if let reference = argument.expression.as(DeclReferenceExprSyntax.self),
                   let (_, passed) = caller.call.enclosingFunctionParameter(named: reference.baseName.text),
                   passed.type.trimmedText != legacyName {
                    continue
                }
                edits.replace(argument.expression, in: caller.file, with: wrapped(argument.expression))
            }
        }
    }

    /// A call of a function named as a retyped parameter's, with its
    /// labels, and the type of its receiver when the sources tell it.
    struct ParameterCaller {
        var call: FunctionCallExprSyntax
        var file: SourceFile
        var type: String?
    }

    /// The calls in the sources of the function that declares `parameter`
    /// (by name and labels), each with its receiver's type when known.
    func callers(of parameter: LegacyParameter) -> [ParameterCaller] {
        sourceFiles(mentioning: parameter.function.name.text).flatMap { file in
            let finder = MethodCallFinder(name: parameter.function.name.text)
            finder.walk(file.tree)
            return finder.calls.filter { $0.arguments.map { $0.label?.text } == parameter.labels }.map { call in
                ParameterCaller(call: call, file: file, type: call.receiverType)
            }
        }
    }

    /// The files of the sources that can mention `name` (see
    /// ``SourceSet/filesMentioning(_:)``), in order.
    func sourceFiles(mentioning name: String) -> [SourceFile] {
        plan.consumer.index?.sources.filesMentioning(name) ?? []
    }

}
extension String {
    /// The name itself when it is spelled as a type (an upper-case first
    /// letter: `TaskManager(…)` constructs, `makeManager(…)` does not).
    fileprivate var typeNameOrNil: String? { first?.isUppercase == true ? self : nil }
}
#endif
