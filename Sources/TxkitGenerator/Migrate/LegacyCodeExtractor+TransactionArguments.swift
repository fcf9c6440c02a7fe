#if Txkit
import SwiftSyntax

/// The legacy transaction passed where a TransactionKit one will go: to a
/// finder a pair shims, or to one of the consumer's own methods that the
/// migration makes take a TransactionKit transaction.
extension LegacyCodeExtractor {
    /// `finder.find(id, db: db)` on a finder a pair shims, or a call of one
    /// of the consumer's methods that the migration makes take a
    /// TransactionKit transaction: the argument becomes the transaction.
    func transactionArgument(_ reference: ExprSyntax) -> Unit? {
        var expression = reference
        // The app's transaction built around the legacy one where it is
        // passed (`finder.find(AppReadTransaction(db))`) is passed as it.
        if let built = inlineLegacyTransaction(around: reference) { expression = ExprSyntax(built) }
        // `transaction` passed as itself; `transaction.database` is GRDB's.
        guard let argument = expression.parent?.as(LabeledExprSyntax.self),
              let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        else { return nil }
        expression = argument.expression
        let callee = call.calledExpression
        // `finder.find(…)`, `self.finder.find(…)`, `finder?.find(…)`, `finder!.find(…)`.
        let receiver = callee.as(MemberAccessExprSyntax.self)?.base.map(Self.unwrapped)
        if let member = callee.as(MemberAccessExprSyntax.self),
           let base = receiver?.as(DeclReferenceExprSyntax.self) ?? receiver?.as(MemberAccessExprSyntax.self)?.declName,
           receiver?.as(MemberAccessExprSyntax.self).map({ $0.base?.trimmedDescription == "self" }) ?? true,
           let finder = context.finderProperties[base.baseName.text],
           LocalScope.declarations(visibleAt: base)[base.baseName.text] == nil {
            let members = finder.plan.members.filter { $0.legacy.name == member.declName.baseName.text }
            if !members.isEmpty {
                if members.contains(where: { $0.legacy.throwsClause == nil && $0.shimThrowsClause != nil }),
                   !throwingCalls.contains(where: { $0.id == call.id }) {
                    throwingCalls.append(call)
                }
                return .transaction(expression, dropLabel: argument)
            }
        }
        let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? callee.as(MemberAccessExprSyntax.self).flatMap { member in
                let base = member.base?.trimmedDescription
                return base == "self" || base == "Self" || base == context.consumer.name ? member.declName.baseName.text : nil
            }
        let labels = call.arguments.map { $0.label?.text }
        if takesTransactionKitTransaction(call, at: argument) {
            return .transaction(expression, dropLabel: nil)
        }
        if let name, let position = Array(call.arguments).firstIndex(where: { $0.id == argument.id }),
           context.migratedMethods.contains(where: { $0.name == name && $0.labels == labels && $0.position == position }) {
            return .transaction(expression, dropLabel: nil)
        }
        return nil
    }

    /// `AppReadTransaction(db)` around `reference`, the legacy name: a
    /// legacy transaction type of the configuration built from it.
    func inlineLegacyTransaction(around reference: ExprSyntax) -> FunctionCallExprSyntax? {
        guard reference.as(DeclReferenceExprSyntax.self)?.baseName.text == scope.legacyName,
              let argument = reference.parent?.as(LabeledExprSyntax.self), argument.label == nil,
              let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
              call.trailingClosure == nil,
              let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              context.legacyTransaction(type) != nil
        else { return nil }
        return call
    }

    /// `finder` of `finder?` and `finder!`.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let chained = expression.as(OptionalChainingExprSyntax.self) { return chained.expression }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return forced.expression }
        return expression
    }

    /// Whether the member `call` calls is declared to take a TransactionKit
    /// transaction where `argument` goes (a consumer migrated before).
    func takesTransactionKitTransaction(_ call: FunctionCallExprSyntax, at argument: LabeledExprSyntax) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
              let baseType = context.typer.type(of: base)
        else { return false }
        let metatype = TypeText.metatypeInstance(baseType)
        let candidates = context.index.members(
            named: member.declName.baseName.text, of: metatype ?? TypeText.unwrapped(baseType), isStatic: metatype != nil)
        var labels: [String?] = call.arguments.map { $0.label?.text }
        if call.trailingClosure != nil { labels.append(nil) }
        guard let position = Array(call.arguments).firstIndex(where: { $0.id == argument.id }) else { return false }
        return candidates.contains { candidate in
            guard candidate.kind == .function,
                  let matched = CallMatcher(member: candidate, shimForm: false, isLegacyTransaction: { _ in false }).argumentParameters(labels),
                  position < matched.count
            else { return false }
            return TransactionKind(typeName: SourceIndex.coreTypeName(candidate.parameters[matched[position]].type)) != nil
        }
    }
}
#endif
