#if Txkit
import SwiftSyntax

/// The fallback when a block's code cannot leave it piece by piece (it
/// hands GRDB values to the code after the block, or the method names GRDB
/// around the block): the whole method body goes into one requirement,
/// run in the block's transaction, the block inlined on the bridged
/// connection. The method becomes `db.read { tx in try dataAccess.m(…, tx) }`.
extension ConsumerMigration {
    /// The function a block is in, if the block is directly in its body
    /// (not in a closure it passes elsewhere).
    func enclosingFunction(of block: TransactionBlock) -> FunctionDeclSyntax? {
        var node = block.call.parent
        while let current = node {
            if let function = current.as(FunctionDeclSyntax.self) { return function }
            if current.is(ClosureExprSyntax.self) || current.is(AccessorDeclSyntax.self) { return nil }
            node = current.parent
        }
        return nil
    }

    /// Whether the function's code outside the block names GRDB.
    func namesGRDBOutside(_ block: TransactionBlock, in function: FunctionDeclSyntax) -> Bool {
        guard let body = function.body else { return false }
        let inside = block.call.positionAfterSkippingLeadingTrivia ..< block.call.endPositionBeforeTrailingTrivia
        let references = body.descendants(DeclReferenceExprSyntax.self).filter { !FreeVariables.isMemberName($0) }.map { ($0.baseName.text, Syntax($0)) }
            + body.descendants(IdentifierTypeSyntax.self).map { ($0.name.text, Syntax($0)) }
        return references.contains { name, node in
            !inside.contains(node.positionAfterSkippingLeadingTrivia)
                && (GRDBVocabulary.typeNames.contains(name) || GRDBVocabulary.functionNames.contains(name))
                && context.index.types[name] == nil && LocalScope.declarations(visibleAt: node)[name] == nil
                && !(GRDBVocabulary.functionNames.contains(name) && node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != node.id)
        }
    }

    /// Moves the whole body of `function`, which holds `block`, into one
    /// requirement; `false` (and nothing changed) when it cannot.
    mutating func migrateWholeMethod(_ function: FunctionDeclSyntax, _ block: TransactionBlock) -> Bool {
        guard case .plain = block.style, let body = function.body, !body.statements.isEmpty,
              blocks.filter({ enclosingFunction(of: $0)?.id == function.id }).count == 1
        else { return false }
        let resultType = function.signature.returnClause?.type.trimmedDescription ?? "Void"
        guard !context.isLegacyType(resultType) else { return false }
        // The first statement, when it bound the database (`guard let
        // database = Env.current.database else { … }`), stays with the
        // production lookup.
        let binding = handleRoot(block.receiver, file: block.file)?.binding
        let nodes = body.statements.enumerated().filter { $0.offset > 0 || $0.element.id != binding?.id }.map { Syntax($0.element) }
        guard !nodes.isEmpty else { return false }
        let free = FreeVariables(
            of: nodes, in: Syntax(function), legacyName: block.legacyName, legacyDeclaration: block.legacyParameter,
            consumer: context.consumer, allowsReturn: true, excluding: [Syntax(block.receiver)])
        // What the body writes outside itself (a property, an `inout`
        // parameter) would not come back from the wrapper: not this way.
        guard free.obstacle == nil, !free.inputs.contains(where: { !$0.writes.isEmpty }) else { return false }
        // Nothing else awaits: the body runs inside one synchronous transaction.
        let awaits = body.descendants(AwaitExprSyntax.self).filter { !LocalDeclaration.isInside($0, block.call) && !LocalDeclaration.isInside(block.call, $0) }
        guard awaits.isEmpty else { return false }
        context.typer.known = [block.legacyName: block.legacyType]
        let scope = TransactionScope(
            body: body.statements, owner: Syntax(function), legacyName: block.legacyName,
            legacyDeclaration: block.legacyParameter, legacyType: block.legacyType, transactionName: "tx", kind: block.kind,
            resultType: resultType, returnsSingleExpression: false, methodName: function.name.text, file: block.file)
        let extractor = LegacyCodeExtractor(context: context, scope: scope)
        var parameters: [InlineRequirement.Parameter] = []
        for input in free.inputs {
            guard let type = extractor.inputType(input), !context.isLegacyType(type) else { return false }
            parameters.append(InlineRequirement.Parameter(name: input.name, type: type))
        }
        guard let (callbacks, callbackEdits) = extractor.callbackParameters(free.callbacks, taken: Set(parameters.map(\.name))) else {
            return false
        }
        parameters += callbacks
        // The block, inlined: its closure called on the bridged connection.
        var outer = Syntax(block.call)
        while let parent = outer.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            outer = parent
        }
        let closureRange = block.closure.positionAfterSkippingLeadingTrivia.utf8Offset ..< block.closure.endPositionBeforeTrailingTrivia.utf8Offset
        let closureText = extractor.movedText([Syntax(block.closure)], extra: callbackEdits.filter { closureRange.contains($0.start) })
            .joined(separator: "\n")
        let inlined = TextEdit(
            start: outer.positionAfterSkippingLeadingTrivia.utf8Offset, end: outer.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: "try \(closureText)(\(block.legacyName))")
        let isSingleExpression = body.statements.count == 1 && body.statements.first!.item.is(ExprSyntax.self)
        var lines = extractor.movedText(nodes, extra: [inlined] + callbackEdits.filter { !closureRange.contains($0.start) })
        if isSingleExpression, resultType != "Void", let first = lines.first {
            lines[0] = "return " + first
        }
        let requirement = context.add(InlineRequirement(
            name: function.name.text, parameters: parameters, resultType: resultType, kind: block.kind, body: lines,
            legacyName: block.legacyName, legacyType: block.legacyType,
            summary: "the whole of `\(context.consumer.name).\(function.name.text)`, run in one transaction"),
            method: function.name.text)
        let call = "try " + requirement.call(on: context.shimProperty, transaction: "tx")
        let method = block.kind == .write ? "write" : "read"
        let opening = (block.isAwaited ? "try await " : "try ") + "\(databaseProperty).\(method) { tx in \(call) }"
        edit(block.file, TextEdit(
            start: body.statements.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: body.statements.endPositionBeforeTrailingTrivia.utf8Offset,
            replacement: (resultType == "Void" ? "" : "return ") + opening))
        return true
    }
}
#endif
