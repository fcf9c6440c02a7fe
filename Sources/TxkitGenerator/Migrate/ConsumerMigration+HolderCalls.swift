#if Txkit
import SwiftSyntax

/// A method of the app's holder that takes more than the block
/// (`storage.asyncWrite(block: { transaction in … }, completion: done)`):
/// TransactionKit has no such form, so the call stays the holder's, behind
/// the consumer's `Database` shim. The shim's requirement takes the block
/// with a TransactionKit transaction; the wrapper, which holds the holder,
/// calls the holder's method and hands the block the transaction bridged
/// from the holder's. The block's code is migrated like any other.
extension ConsumerMigration {
    mutating func migrateHolderCall(_ block: TransactionBlock, _ method: DatabaseHolder.Method, transaction: String) {
        guard let holderType = context.index.types[SourceIndex.coreTypeName(block.receiverType)] else { return }
        let member = method.member
        // Every parameter is passed: a requirement has no defaults.
        var labels: [String?] = block.call.arguments.map { $0.label?.text }
        if block.call.trailingClosure != nil { labels.append(nil) }
        guard labels.count == member.parameters.count else {
            refuse(block.call, in: block.file,
                   "\(context.consumer.name) calls `\(holderType.name).\(member.displayName)` without some of its arguments, whose defaults a shim requirement cannot have",
                   fix: "pass every argument, then run migrate again")
            return
        }
        extract(TransactionScope(
            body: block.closure.statements, owner: Syntax(block.closure), legacyName: block.legacyName,
            legacyDeclaration: block.legacyParameter, legacyType: block.legacyType, transactionName: transaction,
            kind: block.kind, resultType: nil, returnsSingleExpression: false, methodName: enclosingMemberName(block.call),
            file: block.file))
        if let clause = block.closure.signature?.parameterClause {
            edit(block.file, TextEdit(
                start: clause.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: clause.endPositionBeforeTrailingTrivia.utf8Offset, replacement: transaction))
        }
        // `storage.asyncWrite` → `dataAccess.asyncWrite`.
        if let callee = block.call.calledExpression.as(MemberAccessExprSyntax.self) {
            edit(block.file, TextEdit(
                start: callee.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: callee.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "\(context.shimProperty).\(member.name)"))
        }
        // The requirement: the holder's method, its block taking the TransactionKit transaction.
        let holderProperty = SwiftText.lowercasedFirst(holderType.name)
        var parameters: [InlineRequirement.Parameter] = []
        var arguments: [String] = []
        for parameter in member.parameters {
            var type = parameter.declaredType
            let isBlock = parameter.isClosure && DatabaseHolder.closureParameterType(parameter.type) == method.legacyType
            if isBlock {
                type = TypeText.replacingIdentifier(method.legacyType, with: method.kind.typeName, in: type)
            }
            parameters.append(InlineRequirement.Parameter(
                name: parameter.name, type: type, label: parameter.label == parameter.name ? nil : (parameter.label ?? "_")))
            let value = isBlock
                ? "{ \(block.legacyName) in try \(parameter.name)(\(reverseBridge(method.kind, legacyType: method.legacyType, legacy: block.legacyName))) }"
                : parameter.name
            arguments.append((parameter.label.map { $0 + ": " } ?? "") + value)
        }
        let result = member.resultType ?? "Void"
        let call = SwiftText.callPrefix(isAsync: member.isAsync, throwing: member.throwsClause != nil)
            + "\(holderProperty).\(member.name)(\(arguments.joined(separator: ", ")))"
        var requirement = InlineRequirement(
            name: member.name, parameters: parameters, resultType: result, kind: method.kind,
            body: [(result == "Void" ? "" : "return ") + call], legacyName: block.legacyName, legacyType: block.legacyType,
            summary: "`\(holderType.name).\(member.displayName)`, which opens its own transaction")
        requirement.takesTransaction = false
        requirement.throwing = member.throwsClause != nil
        requirement.holder = holderType.name
        _ = context.add(requirement, method: enclosingMemberName(block.call))
    }

    /// The TransactionKit transaction of the legacy one the holder's block
    /// receives: the configured reverse bridge, else the adoption API's
    /// static bridge.
    func reverseBridge(_ kind: TransactionKind, legacyType: String, legacy: String) -> String {
        if let configured = context.legacyTransaction(legacyType), configured.reverseBridge != nil {
            return configured.reverseBridge(for: kind, legacy: legacy)
        }
        return kind == .write ? "SQLiteDB.writeTransaction(bridging: \(legacy))" : "SQLiteDB.readTransaction(bridging: \(legacy))"
    }
}
#endif
