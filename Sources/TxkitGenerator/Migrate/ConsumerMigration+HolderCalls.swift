#if Txkit
import SwiftSyntax

/// A method of the app's holder that takes more than the block
/// (`storage.asyncWrite(block: { transaction in … }, completion: done)`):
/// TransactionKit has no such form, so the call stays the holder's, behind
/// the consumer's `Database` shim. The shim's requirement takes the block
/// with a TransactionKit transaction; the wrapper, which holds the holder,
/// calls the holder's method and hands the block the transaction bridged
/// from the holder's. The block's code is migrated like any other. A
/// holder the consumer reads from a global (`guard let storage =
/// AppEnvironment.current.storage else { throw … }`) is read there by the
/// requirement, at each call as before, not held by the wrapper.
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
        var scope = TransactionScope(
            body: block.closure.statements, owner: Syntax(block.closure), legacyName: block.legacyName,
            legacyDeclaration: block.legacyParameter, legacyType: block.legacyType, transactionName: transaction,
            kind: block.kind, resultType: nil, returnsSingleExpression: false, methodName: enclosingMemberName(block.call),
            file: block.file)
        scope.escapes = member.parameters.contains { $0.isClosure && $0.type.contains("@escaping") && $0.label == method.closureLabel }
        extract(scope)
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
        let global = handleRoot(block.receiver, file: block.file).flatMap { $0.isGlobal ? $0 : nil }
        let lookup = global.map(globalHolderLookup) ?? (lines: [], receiver: holderProperty, throws: false)
        let call = SwiftText.callPrefix(isAsync: member.isAsync, throwing: member.throwsClause != nil)
            + "\(lookup.receiver).\(member.name)(\(arguments.joined(separator: ", ")))"
        var requirement = InlineRequirement(
            name: member.name, parameters: parameters, resultType: result, kind: method.kind,
            body: lookup.lines + [(result == "Void" ? "" : "return ") + call], legacyName: block.legacyName, legacyType: block.legacyType,
            summary: "`\(holderType.name).\(member.displayName)`, which opens its own transaction")
        requirement.takesTransaction = false
        requirement.throwing = member.throwsClause != nil || lookup.throws
        requirement.holder = global == nil ? holderType.name : nil
        _ = context.add(requirement, method: enclosingMemberName(block.call))
        if lookup.throws, member.throwsClause == nil { requireTry(block.call, in: block.file) }
    }

    /// How a requirement reaches a holder read from a global: the
    /// statement that bound it, if any (`guard let storage = … else {
    /// throw … }`), and the expression the consumer called it on.
    private func globalHolderLookup(_ root: HandleRoot) -> (lines: [String], receiver: String, throws: Bool) {
        guard let binding = root.binding, let name = root.bindingName,
              let file = blocks.first(where: { LocalDeclaration.isInside(binding, $0.file.tree) })?.file
        else { return ([], root.expression, false) }
        let column = binding.startLocation(converter: file.converter).column - 1
        let text = dedented(binding.trimmedDescription, by: column)
        let throwing = binding.descendants(ThrowStmtSyntax.self).isEmpty == false
        return (text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), name, throwing)
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
