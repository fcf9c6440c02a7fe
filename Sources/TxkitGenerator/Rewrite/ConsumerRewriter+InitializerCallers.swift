#if Txkit
import SwiftSyntax

/// The callers of the consumer's initializers, once `--apply` retyped a
/// parameter to the shim: what they pass is wrapped.
extension ConsumerRewriter {
    /// Wraps what the callers of the consumer's initializers pass for a
    /// retyped parameter (`TaskManager(store: TaskStore())` becomes
    /// `TaskManager(store: TaskManager.Wrappers.TaskStore())`), in every
    /// file of the sources, `self.init(…)` of the consumer included: the
    /// same instance, now behind the shim. Callers outside the sources
    /// (another module, a test target) are not seen. Only the files that
    /// mention the consumer are walked.
    ///
    /// An optional parameter's callers pass `nil` as it is, and the legacy
    /// type's initializer or singleton wrapped; any other value may be
    /// optional or not, which the sources do not say: refused.
    func updateInitializerCallers(of retyped: RetypedParameters, edits: inout EditBuffer) throws {
        guard !retyped.labels.isEmpty, let index = plan.consumer.index else { return }
        let ownFiles = Set(plan.consumer.declarations.map(\.file.path))
        for file in index.sources.filesMentioning(consumerName, or: ownFiles) {
            let finder = InitializerCallFinder(type: consumerName, selfInit: ownFiles.contains(file.path))
            finder.walk(file.tree)
            for call in finder.calls {
                for argument in call.arguments {
                    guard let label = argument.label?.text, retyped.labels.contains(label) else { continue }
                    let text = argument.expression.trimmedText
                    if GeneratedLayout.namesWrapperOrMock(text, consumer: consumerName) { continue }
                    // `self.init(store: store)` passing on a parameter of
                    // another type than the legacy one (a mock's): as it is.
                    if finder.selfInitCalls.contains(call.id), let reference = argument.expression.as(DeclReferenceExprSyntax.self),
                       let type = call.enclosingInitializerParameterType(named: reference.baseName.text),
                       type != legacyName {
                        continue
                    }
                    if retyped.optionalLabels.contains(label) {
                        if argument.expression.is(NilLiteralExprSyntax.self) { continue }
                        let callee = argument.expression.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText
                            ?? argument.expression.trimmedText
                        guard callee == legacyName || callee.hasPrefix(legacyName + ".") else {
                            throw Refusal(
                                .cannotApply, at: file.sourceLocation(of: argument),
                                "\(text) is passed for \(label): \(legacyName)?, which becomes the shim, and whether "
                                    + "it is optional is not known",
                                fix: "pass \(wrapperType)(…) or nil there, then run again")
                        }
                    }
                    edits.replace(argument.expression, in: file, with: wrapped(argument.expression))
                }
            }
        }
    }
}
#endif
