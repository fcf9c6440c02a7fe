#if Txkit
import Foundation
import SwiftSyntax

/// Callbacks: the consumer's own methods that code moved into a shim calls
/// are passed to the requirement as closures.
extension LegacyCodeExtractor {
    /// The closures a requirement takes for the consumer's own methods the
    /// moved code calls (`indexMessage: (Message, DBWriteTransaction) throws
    /// -> Void`, passed as `{ try self.indexMessage($0, transaction: $1) }`),
    /// and the edits that make the moved code call them; `nil` when a
    /// method cannot be passed so (async, generic, not found).
    func callbackParameters(
        _ calls: [FunctionCallExprSyntax], taken: Set<String>
    ) -> (parameters: [InlineRequirement.Parameter], edits: [TextEdit])? {
        var parameters: [InlineRequirement.Parameter] = []
        var edits: [TextEdit] = []
        var names: [String: String] = [:]
        for call in calls {
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
            let name = member?.declName.baseName.text ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
            var labels: [String?] = call.arguments.map { $0.label?.text }
            if call.trailingClosure != nil { labels.append(nil) }
            guard let function = consumerMethod(named: name, labels: labels),
                  function.signature.effectSpecifiers?.asyncSpecifier == nil, function.genericParameterClause == nil
            else { return nil }
            let key = name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
            if names[key] == nil {
                var parameterName = name
                while taken.contains(parameterName) || parameters.contains(where: { $0.name == parameterName }) {
                    parameterName += "Method"
                }
                names[key] = parameterName
                let declared = Array(function.signature.parameterClause.parameters)
                let migrated = context.migratedMethods.first { $0.function == function.id }
                let types = declared.enumerated().map { index, parameter -> String in
                    if let migrated, migrated.position == index { return migrated.kind.typeName }
                    return parameter.type.trimmedDescription
                }
                let throwsClause = function.signature.effectSpecifiers?.throwsClause != nil
                let result = function.signature.returnClause?.type.trimmedDescription ?? "Void"
                let arguments = declared.enumerated().map { index, parameter in
                    (parameter.firstName.text == "_" ? "" : parameter.firstName.text + ": ")
                        + (types[index].hasPrefix("inout ") ? "&" : "") + "$\(index)"
                }
                parameters.append(InlineRequirement.Parameter(
                    name: parameterName, type: "(\(types.joined(separator: ", "))) throws -> \(result)",
                    argument: "{ \(throwsClause ? "try " : "")self.\(name)(\(arguments.joined(separator: ", "))) }"))
            }
            // `self.helper(a, transaction: transaction)` → `helper(a, tx)`.
            edits.append(TextEdit(
                start: call.calledExpression.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset, replacement: names[key]!))
            for argument in call.arguments {
                if let label = argument.label {
                    edits.append(TextEdit(
                        start: label.positionAfterSkippingLeadingTrivia.utf8Offset,
                        end: argument.expression.positionAfterSkippingLeadingTrivia.utf8Offset, replacement: ""))
                }
            }
        }
        return (parameters, edits)
    }

    /// The consumer's method `name` whose argument labels fit.
    func consumerMethod(named name: String, labels: [String?]) -> FunctionDeclSyntax? {
        for declaration in context.consumer.declarations {
            for item in declaration.memberBlock.members {
                guard let function = item.decl.as(FunctionDeclSyntax.self), function.name.text == name,
                      !function.modifiers.contains(where: { $0.name.text == "static" })
                else { continue }
                let declared = function.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
                if declared == labels { return function }
            }
        }
        return nil
    }
}
#endif
