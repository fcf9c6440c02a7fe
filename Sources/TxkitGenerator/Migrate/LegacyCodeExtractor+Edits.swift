#if Txkit
import Foundation
import SwiftSyntax

/// The edits that replace moved code in the consumer by a call of its
/// requirement.
extension LegacyCodeExtractor {
    /// What the consumer calls requirements on: its shim property, or in a
    /// static method (which has none) the production wrapper.
    var shim: String {
        var node: Syntax? = scope.owner
        while let current = node {
            if let function = current.as(FunctionDeclSyntax.self) {
                if function.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) {
                    return "Wrappers.Database()"
                }
                break
            }
            node = current.parent
        }
        return scope.escapes ? "self." + context.shimProperty : context.shimProperty
    }

    func edits(for unit: Unit) -> [TextEdit] {
        switch unit {
        case let .transaction(expression, label):
            let start = (label.map { Syntax($0) } ?? Syntax(expression)).positionAfterSkippingLeadingTrivia.utf8Offset
            return [TextEdit(start: start, end: expression.endPositionBeforeTrailingTrivia.utf8Offset, replacement: scope.transactionName)]
        case let .renamed(member, name):
            return [TextEdit(
                start: member.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: member.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "\(scope.transactionName).\(name)")]
        case let .memberCall(call, replacement, assignsBack):
            if let assignsBack, let item = statementExpression(of: ExprSyntax(call)) {
                return [TextEdit(
                    start: item.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: item.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "\(assignsBack) = try \(replacement)")]
            }
            return [TextEdit(
                start: call.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: call.endPositionBeforeTrailingTrivia.utf8Offset, replacement: (isTried(ExprSyntax(call)) ? "" : "try ") + replacement)]
        case let .expression(expression, requirement, assignsBack):
            let call = requirement.call(on: shim, transaction: scope.transactionName)
            if let assignsBack, let item = statementExpression(of: expression) {
                return [TextEdit(
                    start: item.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: item.endPositionBeforeTrailingTrivia.utf8Offset,
                    replacement: "\(assignsBack) = try \(requirement.isAsync ? "await " : "")\(call)")]
            }
            // `await x` not tried becomes `try await call`: `try` goes first.
            let awaitExpression = isTried(expression) ? nil : expression.parent?.as(AwaitExprSyntax.self)
            let start = awaitExpression.map { Syntax($0) } ?? Syntax(expression)
            let awaits = requirement.isAsync && (awaitExpression != nil || !isAwaited(expression))
            return [TextEdit(
                start: start.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: expression.endPositionBeforeTrailingTrivia.utf8Offset,
                replacement: (isTried(expression) ? "" : "try ") + (awaits ? "await " : "") + call)]
        case let .statements(list, range, requirement, outputs, returns):
            let items = Array(list)
            let first = items[range.lowerBound], last = items[range.upperBound - 1]
            let indentation = String(repeating: " ", count: scope.file.converter.location(for: first.positionAfterSkippingLeadingTrivia).column - 1)
            let call = (requirement.isAsync ? "try await " : "try ") + requirement.call(on: shim, transaction: scope.transactionName)
            var lines: [String]
            if returns {
                lines = [requirement.resultType == "Void" || scope.returnsSingleExpression ? call : "return " + call]
            } else {
                switch outputs.count {
                case 0:
                    lines = [call]
                case 1:
                    let output = outputs[0]
                    let keyword = output.isVariable && isWrittenAfter(output.name, list: list, range: range) ? "var" : "let"
                    lines = [output.isDeclaration ? "\(keyword) \(output.name) = \(call)" : "\(output.name) = \(call)"]
                default:
                    let result = "\(requirement.name)Result"
                    lines = ["let \(result) = \(call)"] + outputs.map { output in
                        output.isDeclaration
                            ? "\(output.isVariable && isWrittenAfter(output.name, list: list, range: range) ? "var" : "let") \(output.name) = \(result).\(output.name)"
                            : "\(output.name) = \(result).\(output.name)"
                    }
                }
            }
            let text = lines.enumerated().map { $0.offset == 0 ? $0.element : indentation + $0.element }.joined(separator: "\n")
            return [TextEdit(
                start: first.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: last.endPositionBeforeTrailingTrivia.utf8Offset, replacement: text)]
        }
    }

    /// Where `unit`'s new text tries a call the code it replaces did not:
    /// the replaced expression, or a run's first statement when no
    /// statement of the run tried anything.
    func newlyTriedNode(of unit: Unit) -> Syntax? {
        switch unit {
        case .transaction, .renamed:
            return nil
        case let .expression(expression, _, _):
            return isTried(expression) ? nil : Syntax(expression)
        case let .memberCall(call, _, _):
            return isTried(ExprSyntax(call)) ? nil : Syntax(call)
        case let .statements(list, range, _, _, _):
            let items = Array(list)[range]
            let tries = items.contains { item in
                item.descendants(TryExprSyntax.self).contains {
                    $0.questionOrExclamationMark == nil && $0.ancestor(ClosureExprSyntax.self, below: Syntax(item)) == nil
                }
            }
            return tries ? nil : Syntax(items[items.startIndex])
        }
    }

    /// Whether code after the run writes the local `name` it declared.
    func isWrittenAfter(_ name: String, list: CodeBlockItemListSyntax, range: Range<Int>) -> Bool {
        let end = Array(list)[range.upperBound - 1].endPosition
        return scope.body.descendants(DeclReferenceExprSyntax.self).contains { reference in
            reference.position >= end && reference.baseName.text == name && !FreeVariables.isMemberName(reference)
                && FreeVariables.write(of: Syntax(reference)) != nil
        }
    }
}
#endif
