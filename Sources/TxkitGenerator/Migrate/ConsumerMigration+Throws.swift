#if Txkit
import SwiftSyntax

/// `try` where a call now goes through a shim that throws (its bridge
/// can) although the legacy member did not: before the call, before a
/// rethrowing collection method whose closure holds it (`map`, `filter`…),
/// and `throws` on a private method of the consumer that holds it, whose
/// own callers then try. Nothing is caught or dropped on the way; a call
/// that cannot be reached so is refused with its place.
extension ConsumerMigration {
    /// Collection methods that rethrow their closure's errors.
    static let rethrowingMethods: Set<String> = [
        "map", "compactMap", "flatMap", "filter", "forEach", "first", "last", "contains", "allSatisfy", "sorted",
        "min", "max", "reduce", "firstIndex", "lastIndex", "drop", "prefix", "partition", "removeAll",
    ]

    mutating func requireTry(_ call: FunctionCallExprSyntax, in file: SourceFile) {
        var visited: Set<SyntaxIdentifier> = []
        requireTry(Syntax(call), in: file, visited: &visited)
    }

    /// Code whose new text already tries a requirement's call: the function
    /// or closure around it has to throw, or a `do`/`catch` catch it.
    mutating func requireThrowingContext(of node: Syntax, in file: SourceFile) {
        var visited: Set<SyntaxIdentifier> = []
        requireTry(node, in: file, visited: &visited, covered: true)
    }

    private mutating func requireTry(_ expression: Syntax, in file: SourceFile, visited: inout Set<SyntaxIdentifier>, covered: Bool = false) {
        guard visited.insert(expression.id).inserted else { return }
        var node = expression.parent
        var covered = covered
        var child = expression
        while let current = node {
            if let tried = current.as(TryExprSyntax.self) {
                // `try?` and `try!` handle what they try.
                if tried.questionOrExclamationMark != nil { return }
                covered = true
            }
            if let list = current.as(ExprListSyntax.self), let first = list.first?.as(TryExprSyntax.self) {
                if first.questionOrExclamationMark != nil { return }
                covered = true
            }
            // Inside a `do` whose catches catch everything.
            if let statement = current.as(DoStmtSyntax.self), statement.body.id == child.id,
               statement.catchClauses.contains(where: { $0.catchItems.isEmpty }) {
                if !covered { insertTry(before: expression, in: file) }
                return
            }
            if let closure = current.as(ClosureExprSyntax.self) {
                if !covered { insertTry(before: expression, in: file) }
                // A closure passed to a rethrowing method: that call throws too.
                let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                if let call, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                   Self.rethrowingMethods.contains(member.declName.baseName.text) {
                    requireTry(Syntax(call), in: file, visited: &visited)
                    return
                }
                if let signature = closure.signature, signature.effectSpecifiers?.throwsClause != nil { return }
                // A closure a method receives: whether it may throw is the method's declaration's say.
                if closure.parent?.is(LabeledExprSyntax.self) == true || closure.parent?.is(FunctionCallExprSyntax.self) == true {
                    return
                }
                refuse(expression, in: file, "`\(expression.trimmedDescription.prefix(60))` now throws (its shim's bridge can) in a closure that does not",
                       fix: "let the closure throw, then run migrate again")
                return
            }
            if let function = current.as(FunctionDeclSyntax.self) {
                if !covered { insertTry(before: expression, in: file) }
                if function.signature.effectSpecifiers?.throwsClause != nil { return }
                makeThrowing(function, in: file, visited: &visited)
                return
            }
            if current.is(AccessorDeclSyntax.self) || current.is(InitializerDeclSyntax.self) || current.is(MemberBlockItemSyntax.self) {
                if !covered { insertTry(before: expression, in: file) }
                refuse(expression, in: file, "`\(expression.trimmedDescription.prefix(60))` now throws (its shim's bridge can) in an initializer or accessor that does not",
                       fix: "mark it `throws` or move the call into a method, then run migrate again")
                return
            }
            child = current
            node = current.parent
        }
    }

    private mutating func insertTry(before expression: Syntax, in file: SourceFile) {
        // `try` goes before the `await` of an awaited call.
        let start = expression.parent?.as(AwaitExprSyntax.self).map { Syntax($0) } ?? expression
        edit(file, TextEdit(
            start: start.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: start.positionAfterSkippingLeadingTrivia.utf8Offset, replacement: "try "))
    }

    /// Marks a private method `throws` and its callers in the consumer `try`.
    private mutating func makeThrowing(_ function: FunctionDeclSyntax, in file: SourceFile, visited: inout Set<SyntaxIdentifier>) {
        // A method that took a legacy transaction keeps its old signature
        // as a production entry point, which catches; only the consumer calls the new one.
        let isEntryPoint = context.migratedMethods.contains { $0.function == function.id }
        guard isEntryPoint || function.modifiers.contains(where: { $0.name.text == "private" || $0.name.text == "fileprivate" }) else {
            refuse(function.name, in: file, "`\(function.name.text)` would have to throw (a shim it calls throws where the legacy member did not), and code outside \(context.consumer.name) may call it",
                   fix: "mark it `throws` and add `try` to its callers, then run migrate again")
            return
        }
        let signature = function.signature
        let position = signature.returnClause?.positionAfterSkippingLeadingTrivia ?? signature.endPositionBeforeTrailingTrivia
        edit(file, TextEdit(start: position.utf8Offset, end: position.utf8Offset,
                            replacement: signature.returnClause == nil ? " throws" : "throws "))
        let labels = function.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
        for declaration in context.consumer.declarations where declaration.file.generatedBy == nil {
            for call in declaration.memberBlock.descendants(FunctionCallExprSyntax.self) {
                let callee = Self.ownCallee(of: call)
                guard callee == function.name.text, call.arguments.map({ $0.label?.text }) == labels else { continue }
                requireTry(Syntax(call), in: declaration.file, visited: &visited)
            }
        }
    }
}
#endif
